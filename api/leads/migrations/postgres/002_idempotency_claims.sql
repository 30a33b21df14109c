-- A request with an Idempotency-Key claims the key while it verifies the challenge and writes;
-- others with the same key, on any replica, wait for its record (or for the claim to go or expire).
-- UNLOGGED: a claim needs no durability (a crash of the database ends every request that held
-- one), so taking it costs no WAL flush. The SQLite store keeps claims in the memory of its one
-- server process.
CREATE UNLOGGED TABLE idempotency_claims (
  endpoint TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  token TEXT NOT NULL,
  lease_until BIGINT NOT NULL,
  PRIMARY KEY (endpoint, idempotency_key)
);
