import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        name text NOT NULL,
        lookup_id text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        previous_secret_hash text,
        previous_secret_expires_at timestamptz,
        scopes text[] NOT NULL,
        hint text NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX api_keys_org_created ON api_keys (org_id, created_at DESC, id DESC)`);
    await db.query(`
      CREATE TABLE agents (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX agents_org_created ON agents (org_id, created_at DESC, id DESC)`);
    await db.query(`
      CREATE TABLE agent_versions (
        id uuid PRIMARY KEY,
        agent_id uuid NOT NULL REFERENCES agents(id),
        org_id uuid NOT NULL REFERENCES organizations(id),
        version integer NOT NULL,
        model text NOT NULL,
        instructions text NOT NULL,
        temperature double precision,
        max_output_tokens integer,
        run_timeout_seconds integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (agent_id, version)
      )`);
    await db.query(`
      CREATE FUNCTION agent_versions_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'agent versions are immutable';
      END $$`);
    await db.query(`
      CREATE TRIGGER agent_versions_immutable BEFORE UPDATE ON agent_versions
      FOR EACH ROW EXECUTE FUNCTION agent_versions_are_immutable()`);
    await db.query(`
      CREATE TABLE agent_runs (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        agent_version_id uuid NOT NULL REFERENCES agent_versions(id),
        input text NOT NULL,
        output text,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        error text,
        idempotency_key text,
        request_hash text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX agent_runs_org_created ON agent_runs (org_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX agent_runs_org_status_created ON agent_runs (org_id, status, created_at DESC, id DESC)`);
    await db.query(`CREATE UNIQUE INDEX agent_runs_org_idempotency ON agent_runs (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE agent_runs`);
    await db.query(`DROP TRIGGER agent_versions_immutable ON agent_versions`);
    await db.query(`DROP FUNCTION agent_versions_are_immutable`);
    await db.query(`DROP TABLE agent_versions`);
    await db.query(`DROP TABLE agents`);
    await db.query(`DROP TABLE api_keys`);
    await db.query(`DROP TABLE organizations`);
  }
}
