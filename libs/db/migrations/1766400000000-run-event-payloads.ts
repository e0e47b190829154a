import type { MigrationInterface, QueryRunner } from 'typeorm';
import { NUMBER_AND_ANNOUNCE_BY_SEQ, RUN_EVENTS_CHANNEL } from './1764500000000-run-events';

/**
 * PostgreSQL refuses a NOTIFY payload of 8 000 bytes or more; an event whose announcement would be longer
 * than this is announced by its `<run_id>:<seq>` alone, and its followers read it from the table.
 */
export const MAX_CARRIED_ANNOUNCEMENT_BYTES = 7_900;

/**
 * Each run event is announced with the event itself, `<run_id>:<seq>:<{"type","data","created_at"}>`, as
 * the stream's opening read returns events: a stream following the run sends it without reading it back
 * (one statement less per announcement). An event too large for a NOTIFY is still announced as before.
 */
export class RunEventPayloads1766400000000 implements MigrationInterface {
  name = 'RunEventPayloads1766400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE OR REPLACE FUNCTION run_events_number_and_announce() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        announcement text;
        carried text;
      BEGIN
        IF NEW.seq < 1 THEN
          PERFORM pg_advisory_xact_lock(hashtextextended(NEW.run_id::text, 0));
          SELECT COALESCE(MAX(seq), 0) + 1 INTO NEW.seq FROM run_events WHERE run_id = NEW.run_id;
        END IF;
        announcement := NEW.run_id::text || ':' || NEW.seq;
        carried := announcement || ':' || json_build_object('type', NEW.type, 'data', NEW.data, 'created_at', NEW.created_at)::text;
        PERFORM pg_notify('${RUN_EVENTS_CHANNEL}', CASE WHEN octet_length(carried) <= ${MAX_CARRIED_ANNOUNCEMENT_BYTES} THEN carried ELSE announcement END);
        RETURN NEW;
      END
      $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(NUMBER_AND_ANNOUNCE_BY_SEQ);
  }
}
