import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channel every new run event is announced on: `<run_id>:<seq>`. */
export const RUN_EVENTS_CHANNEL = 'pylon_run_events';

/** The trigger function as this migration makes it: each event announced by `<run_id>:<seq>` alone. */
export const NUMBER_AND_ANNOUNCE_BY_SEQ = `
  CREATE OR REPLACE FUNCTION run_events_number_and_announce() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.seq < 1 THEN
      PERFORM pg_advisory_xact_lock(hashtextextended(NEW.run_id::text, 0));
      SELECT COALESCE(MAX(seq), 0) + 1 INTO NEW.seq FROM run_events WHERE run_id = NEW.run_id;
    END IF;
    PERFORM pg_notify('${RUN_EVENTS_CHANNEL}', NEW.run_id::text || ':' || NEW.seq);
    RETURN NEW;
  END
  $$`;

/**
 * Every run's ordered event log. A trigger numbers each run's events 1, 2, 3… (under a per-run
 * advisory lock, so concurrent writers of one run never collide; inserted with seq 0, an event gets
 * the next number, while the `queued` event written with its run is 1) and announces each on the
 * `pylon_run_events` channel when its transaction commits, so API replicas follow runs with LISTEN.
 */
export class RunEvents1764500000000 implements MigrationInterface {
  name = 'RunEvents1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE run_events (
        run_id uuid NOT NULL REFERENCES agent_runs (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        org_id uuid NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (run_id, seq)
      )`);
    await db.query(`CREATE INDEX run_events_created_at ON run_events (created_at)`);
    await db.query(NUMBER_AND_ANNOUNCE_BY_SEQ);
    await db.query(`
      CREATE TRIGGER run_events_number_and_announce BEFORE INSERT ON run_events
      FOR EACH ROW EXECUTE FUNCTION run_events_number_and_announce()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE run_events`);
    await db.query(`DROP FUNCTION run_events_number_and_announce()`);
  }
}
