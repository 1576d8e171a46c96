// Package store keeps Augur's validations and runs them as durable jobs.
//
// A Store persists validation requests, their progress and their reports,
// in one SQLite file (the embedded default) or in PostgreSQL (scale-out),
// and queues them with River, so that any number of worker processes
// sharing the database run them: a job survives the crash of the worker
// running it and is never run twice to two different verdicts.
//
// Start reading at Open (open.go), which picks the database from the DSN,
// runs River's migrations and creates Augur's tables (schema.go). The
// Store's methods are in sqlstore.go, over a small layer (db.go) that runs
// the same SQL on both databases; the job worker is in worker.go.
//
// # Life of a validation
//
// Submit computes the submission's Key (key.go) and, in one transaction,
// either copies the verdict of an earlier validation with the same Key
// (status Done, CachedFrom set, no job) or inserts the validation Queued
// together with a River job of kind "validate". Work runs a River client
// whose worker marks the validation Running (Attempts counted), calls the
// Runner, persists its progress at most four times a second (the latest
// event always, after the interval), and stores
// the verdict, only over a Running row: a late or duplicate attempt writes
// nothing. A failed run is retried (MaxAttempts in all) and then Failed.
// Cancel marks the validation Cancelled and cancels its job; a worker
// running it polls the row and cancels the Runner's context.
//
// # Identical submissions
//
// At most one validation per Key is queued or running with a job (a
// unique partial index, augur_validation_in_flight, so also between
// concurrent transactions of PostgreSQL): an identical submission made
// meanwhile is recorded Queued with CachedFrom naming it, has no job, and
// ends with its outcome (settleWaiting). Cancelling the validation with
// the job hands the run over to the first one waiting.
//
// # Crashes and shutdown
//
// The worker running a validation beats every quarter of its rescue
// delay (WithRescueAfter), setting alive_until to now plus the delay, as
// long as the run is within its job timeout (WithJobTimeout). Every
// working process looks for running validations past their alive_until
// (rescue) and queues them again, their River job made available; one
// silent on its last attempt fails. A worker that died between writing a
// verdict and River recording its job completed leaves the job running:
// a rescue delay after the verdict, the job is made available again
// (releaseOrphanJobs), and the worker that takes it completes it without
// running anything. River's own rescuer remains as a
// backstop, past the job timeout plus the rescue delay, for a job whose
// worker died before marking its validation running. On shutdown, Work
// lets running validations finish within its grace period and then
// cancels them; River retries them later.
//
// # Databases
//
// SQLite goes through modernc.org/sqlite (no cgo) with WAL, a busy timeout,
// immediate transactions and a pool of one connection, as River's SQLite
// driver recommends; several processes may share the file. PostgreSQL goes
// through pgx; migrations are serialised by an advisory lock. IDs are
// ULID-like (time then randomness, 26 characters) so that listing newest
// first and paging by cursor follow the ID order.
//
// Files, in reading order: store.go, id.go, key.go, kernel.go, redact.go,
// open.go, db.go, schema.go, sqlstore.go, worker.go.
package store
