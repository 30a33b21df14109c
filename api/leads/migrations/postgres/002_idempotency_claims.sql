-- A request that found no record for its key claims the key while it verifies the challenge and
-- writes; others with the same key wait for the record (or for the claim to go or expire).
CREATE TABLE idempotency_claims (
  endpoint TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  token TEXT NOT NULL,
  lease_until BIGINT NOT NULL,
  PRIMARY KEY (endpoint, idempotency_key)
);
