package store

// schema creates Augur's tables and indexes; every statement is idempotent,
// and runs on SQLite and PostgreSQL alike. Times are Unix microseconds (0:
// not yet), so that both databases store and compare them the same way.
var schema = []string{
	`CREATE TABLE IF NOT EXISTS augur_validation (
		id           TEXT PRIMARY KEY,
		content_key  TEXT NOT NULL,
		spec_name    TEXT NOT NULL DEFAULT '',
		spec         TEXT NOT NULL,
		program_name TEXT NOT NULL DEFAULT '',
		program      TEXT NOT NULL,
		options      TEXT NOT NULL DEFAULT '{}',
		repository   TEXT NOT NULL DEFAULT '',
		branch       TEXT NOT NULL DEFAULT '',
		commit_id    TEXT NOT NULL DEFAULT '',
		pipeline     TEXT NOT NULL DEFAULT '',
		job          TEXT NOT NULL DEFAULT '',
		labels       TEXT NOT NULL DEFAULT '{}',
		status       TEXT NOT NULL,
		progress     TEXT NOT NULL DEFAULT '{}',
		verdict      TEXT NOT NULL DEFAULT '',
		reason       TEXT NOT NULL DEFAULT '',
		report       TEXT NOT NULL DEFAULT '',
		error        TEXT NOT NULL DEFAULT '',
		cached_from  TEXT NOT NULL DEFAULT '',
		attempts     BIGINT NOT NULL DEFAULT 0,
		river_job_id BIGINT NOT NULL DEFAULT 0,
		created_at   BIGINT NOT NULL,
		started_at   BIGINT NOT NULL DEFAULT 0,
		finished_at  BIGINT NOT NULL DEFAULT 0,
		alive_until  BIGINT NOT NULL DEFAULT 0
	)`,
	`CREATE INDEX IF NOT EXISTS augur_validation_repository ON augur_validation (repository, id)`,
	`CREATE INDEX IF NOT EXISTS augur_validation_branch ON augur_validation (branch, id)`,
	`CREATE INDEX IF NOT EXISTS augur_validation_commit ON augur_validation (commit_id, id)`,
	`CREATE INDEX IF NOT EXISTS augur_validation_verdict ON augur_validation (verdict, id)`,
	`CREATE INDEX IF NOT EXISTS augur_validation_status ON augur_validation (status, id)`,
	`CREATE INDEX IF NOT EXISTS augur_validation_key ON augur_validation (content_key, status)`,
	`CREATE INDEX IF NOT EXISTS augur_validation_created ON augur_validation (created_at)`,
	`CREATE INDEX IF NOT EXISTS augur_validation_finished ON augur_validation (finished_at)`,
	// One row per label, for filtering; the labels column keeps them for
	// reading.
	`CREATE TABLE IF NOT EXISTS augur_validation_label (
		validation_id TEXT NOT NULL REFERENCES augur_validation (id) ON DELETE CASCADE,
		name          TEXT NOT NULL,
		value         TEXT NOT NULL,
		PRIMARY KEY (validation_id, name)
	)`,
	`CREATE INDEX IF NOT EXISTS augur_validation_label_name ON augur_validation_label (name, value, validation_id)`,
	// The cache: for each CacheKey, the last validation whose verdict was
	// cacheable. Verdicts stored before it existed are not reused (their
	// verifier is unknown).
	`CREATE TABLE IF NOT EXISTS augur_cache (
		cache_key     TEXT PRIMARY KEY,
		validation_id TEXT NOT NULL REFERENCES augur_validation (id) ON DELETE CASCADE
	)`,
	`CREATE INDEX IF NOT EXISTS augur_cache_validation ON augur_cache (validation_id)`,
}

// column is a column added to a table after its creation: databases
// created before get it at Open.
type column struct{ table, name, def string }

// addedColumns are the columns that databases of earlier versions lack
// (CREATE TABLE above has them).
var addedColumns = []column{
	// Until when the worker running the validation is known alive: its
	// last heartbeat plus its rescue delay (Unix microseconds; 0: no
	// heartbeat yet, see rescue).
	{"augur_validation", "alive_until", "BIGINT NOT NULL DEFAULT 0"},
}

// schemaAfterColumns runs after addedColumns, idempotent too.
var schemaAfterColumns = []string{
	// At most one run per content in flight: the queued or running
	// validation that runs it (cached_from empty, the "leader"); identical
	// submissions meanwhile wait for its verdict (cached_from naming
	// it). Databases of earlier versions may hold several in flight:
	// the later ones wait for the first, whose job runs.
	`UPDATE augur_validation SET cached_from = (SELECT MIN(o.id) FROM augur_validation o
		WHERE o.content_key = augur_validation.content_key AND o.status IN ('queued', 'running') AND o.cached_from = '')
	WHERE status IN ('queued', 'running') AND cached_from = '' AND id > (SELECT MIN(o.id) FROM augur_validation o
		WHERE o.content_key = augur_validation.content_key AND o.status IN ('queued', 'running') AND o.cached_from = '')`,
	`CREATE UNIQUE INDEX IF NOT EXISTS augur_validation_in_flight ON augur_validation (content_key)
		WHERE status IN ('queued', 'running') AND cached_from = ''`,
	`CREATE INDEX IF NOT EXISTS augur_validation_waiting ON augur_validation (cached_from)
		WHERE status = 'queued' AND cached_from <> ''`,
	`CREATE INDEX IF NOT EXISTS augur_validation_running ON augur_validation (alive_until)
		WHERE status = 'running'`,
	// The validation of a River job, for releaseOrphanJobs.
	`CREATE INDEX IF NOT EXISTS augur_validation_job ON augur_validation (river_job_id)`,
}
