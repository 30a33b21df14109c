-- Leads, their outbox and idempotency records (applied in place of the inline migration 1 of
-- earlier releases: same version, same tables).
CREATE TABLE leads (
  lead_id INTEGER PRIMARY KEY,
  reference TEXT NOT NULL UNIQUE,
  endpoint TEXT NOT NULL CHECK (endpoint IN ('contact', 'inquiry')),
  created_at INTEGER NOT NULL,
  payload_json TEXT NOT NULL
);
CREATE INDEX leads_created_at ON leads (created_at);

CREATE TABLE outbox (
  outbox_id INTEGER PRIMARY KEY,
  lead_id INTEGER NOT NULL REFERENCES leads (lead_id),
  kind TEXT NOT NULL CHECK (kind IN ('team', 'operator')),
  operator_slug TEXT,
  message_id TEXT NOT NULL UNIQUE,
  message_json TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT,
  sent_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);

CREATE TABLE idempotency (
  endpoint TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_json TEXT NOT NULL,
  lead_id INTEGER REFERENCES leads (lead_id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (endpoint, idempotency_key)
);
CREATE INDEX idempotency_created_at ON idempotency (created_at);
