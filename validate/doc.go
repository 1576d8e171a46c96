// Files, in reading order: validate.go, load.go, stop.go, cancel.go,
// quicktest.go, ahead.go, discharge.go, pieces.go, probe.go, literals.go,
// solverinputs.go, matchdeep.go, reduce.go, reduce_check.go,
// reduce_transform.go, reduce_model.go, reduce_witness.go,
// counterexample.go, script.go, rename.go, report.go.
package validate
