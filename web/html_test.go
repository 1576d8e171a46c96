package web

import (
	"io"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// voidElements have no end tag.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true,
	"track": true, "wbr": true,
}

// checkHTML fails t unless page is well formed (a doctype, every element
// closed in order, no stray end tag) and follows the dashboard's
// accessibility rules: unique ids, one main landmark with a skip link to
// it, every form field labelled, every table header scoped, every
// aria-labelledby and fragment link pointing at an element.
func checkHTML(t *testing.T, page string) *html.Node {
	t.Helper()
	if !strings.HasPrefix(page, "<!DOCTYPE html>") {
		t.Errorf("the page does not start with <!DOCTYPE html>")
	}
	z := html.NewTokenizer(strings.NewReader(page))
	var stack []string
loop:
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatalf("tokenizing: %v", z.Err())
			}
			break loop
		case html.StartTagToken:
			name, _ := z.TagName()
			if !voidElements[string(name)] {
				stack = append(stack, string(name))
			}
		case html.SelfClosingTagToken:
			name, _ := z.TagName()
			if !voidElements[string(name)] {
				t.Errorf("<%s/> is not a void element", name)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if voidElements[string(name)] {
				t.Errorf("end tag of the void element %s", name)
				continue
			}
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				t.Errorf("</%s> closes %v", name, stack)
				continue
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		t.Errorf("elements left open: %v", stack)
	}

	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, n := range findAll(doc, func(n *html.Node) bool { return attr(n, "id") != "" }) {
		ids[attr(n, "id")]++
	}
	for id, k := range ids {
		if k > 1 {
			t.Errorf("id %q used %d times", id, k)
		}
	}
	if m := findAll(doc, isTag(atom.Main)); len(m) != 1 || attr(m[0], "id") != "main" {
		t.Errorf("want one <main id=main>, got %d", len(m))
	}
	if len(findAll(doc, isTag(atom.Header))) == 0 || len(findAll(doc, isTag(atom.Nav))) == 0 {
		t.Errorf("no header or nav landmark")
	}
	if skip := findAll(doc, hasClass("skip")); len(skip) != 1 || attr(skip[0], "href") != "#main" {
		t.Errorf("no skip link to #main")
	}
	if attr(findAll(doc, isTag(atom.Html))[0], "lang") == "" {
		t.Errorf("<html> has no lang")
	}
	labelled := map[string]bool{}
	for _, l := range findAll(doc, isTag(atom.Label)) {
		labelled[attr(l, "for")] = true
	}
	for _, f := range findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.Input && attr(n, "type") != "hidden" || n.DataAtom == atom.Select || n.DataAtom == atom.Textarea
	}) {
		if !labelled[attr(f, "id")] && attr(f, "aria-label") == "" {
			t.Errorf("form field %q has no label", attr(f, "name"))
		}
	}
	for _, th := range findAll(doc, isTag(atom.Th)) {
		if s := attr(th, "scope"); s != "col" && s != "row" {
			t.Errorf("<th> %q without scope", text(th))
		}
	}
	for _, n := range findAll(doc, func(n *html.Node) bool { return attr(n, "aria-labelledby") != "" }) {
		if ids[attr(n, "aria-labelledby")] == 0 {
			t.Errorf("aria-labelledby=%q names no element", attr(n, "aria-labelledby"))
		}
	}
	for _, a := range findAll(doc, isTag(atom.A)) {
		if h := attr(a, "href"); strings.HasPrefix(h, "#") && ids[h[1:]] == 0 {
			t.Errorf("link to %s, which is no element", h)
		}
	}
	return doc
}

func findAll(n *html.Node, pred func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && pred(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func byID(doc *html.Node, id string) *html.Node {
	ns := findAll(doc, func(n *html.Node) bool { return attr(n, "id") == id })
	if len(ns) == 0 {
		return nil
	}
	return ns[0]
}

func isTag(a atom.Atom) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.DataAtom == a }
}

func hasClass(c string) func(*html.Node) bool {
	return func(n *html.Node) bool {
		for _, f := range strings.Fields(attr(n, "class")) {
			if f == c {
				return true
			}
		}
		return false
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// text is the text content of n, with runs of white space made one space.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

func texts(ns []*html.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = text(n)
	}
	return out
}

// nextElement is the element sibling after n.
func nextElement(n *html.Node) *html.Node {
	for c := n.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}
