-- Times are milliseconds since the epoch, as in the SQLite store (the service's clock).
CREATE TABLE leads (
  lead_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reference TEXT NOT NULL UNIQUE,
  endpoint TEXT NOT NULL CHECK (endpoint IN ('contact', 'inquiry')),
  created_at BIGINT NOT NULL,
  payload JSONB NOT NULL
);
CREATE INDEX leads_created_at ON leads (created_at);

CREATE TABLE outbox (
  outbox_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  lead_id BIGINT NOT NULL REFERENCES leads (lead_id),
  kind TEXT NOT NULL CHECK (kind IN ('team', 'operator')),
  operator_slug TEXT,
  message_id TEXT NOT NULL UNIQUE,
  message JSONB NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_error TEXT,
  sent_at BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX outbox_lead ON outbox (lead_id);
CREATE INDEX outbox_due ON outbox (next_attempt_at, outbox_id) WHERE status = 'pending';

-- response is JSON, not JSONB: a replay returns the first response byte for byte.
CREATE TABLE idempotency (
  endpoint TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response JSON NOT NULL,
  lead_id BIGINT REFERENCES leads (lead_id),
  created_at BIGINT NOT NULL,
  PRIMARY KEY (endpoint, idempotency_key)
);
CREATE INDEX idempotency_created_at ON idempotency (created_at);
