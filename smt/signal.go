package smt

/*
#include <errno.h>
#include <signal.h>

// signal replaces the C library's signal(3) for the whole process, so that
// Z3 cannot take SIGINT away from Go.
//
// Z3 4.8 wraps every solver check whose "ctrl_c" parameter is not false in
// a scoped handler: signal(SIGINT, on_ctrl_c) before, signal(SIGINT, old)
// after, with the handler's object in one global variable. That is wrong
// in a Go program twice over. Restoring with signal(3) drops the
// SA_SIGINFO and SA_ONSTACK flags that Go's handler needs, so the next
// SIGINT crashes the runtime even after a single check; and with checks on
// several threads the saves and restores interleave, leaving Z3's handler
// installed over a destroyed object. In 4.8 the parameter is per solver
// only (no global "ctrl_c"), so the one place that covers every solver,
// simplifier and tactic is the call itself.
//
// SIGINT requests are refused (SIG_ERR, errno EINVAL), which Z3 reads as
// "nothing to restore": Go keeps its handler and os/signal sees Ctrl-C.
// Every other signal is set as glibc's BSD signal(3) does.
__sighandler_t signal(int sig, __sighandler_t handler) {
	struct sigaction sa, old;
	if (sig == SIGINT) {
		errno = EINVAL;
		return SIG_ERR;
	}
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &old) < 0) {
		return SIG_ERR;
	}
	return old.sa_handler;
}

// augurSigintFlags returns the flags of the process's SIGINT action.
static unsigned long augurSigintFlags(void) {
	struct sigaction sa;
	if (sigaction(SIGINT, 0, &sa) < 0) {
		return 0;
	}
	return (unsigned long)sa.sa_flags;
}
*/
import "C"

// GoOwnsSigint reports whether SIGINT's action is still one the Go runtime
// installed (SA_SIGINFO and SA_ONSTACK set) or the default one, that is
// whether Ctrl-C reaches os/signal rather than a handler of Z3's. The
// binding keeps it so: Z3 is never allowed to install its own SIGINT
// handler (see signal.go), so that a process using Z3 on many goroutines
// may still shut down on Ctrl-C through os/signal.NotifyContext.
func GoOwnsSigint() bool {
	const goFlags = C.SA_SIGINFO | C.SA_ONSTACK
	f := C.augurSigintFlags()
	return f == 0 || f&goFlags == goFlags
}
