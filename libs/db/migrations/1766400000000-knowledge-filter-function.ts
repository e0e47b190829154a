import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A search filter (libs/contracts' SearchFilter, as jsonb) evaluated against a document's title and
 * metadata, so that the knowledge search is one fixed statement with the filter as a parameter. Every
 * attribute is compared as jsonb, so a value of another type never matches (and never raises a cast
 * error): numbers compare as numbers, strings by the database's collation. A document without the
 * attribute matches only `ne` and `nin`. Every comparison is true or false (never null), so `and` and
 * `or` stop at the first child that decides them.
 */
export class KnowledgeFilterFunction1766400000000 implements MigrationInterface {
  name = 'KnowledgeFilterFunction1766400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION knowledge_filter_matches(filter jsonb, title text, metadata jsonb) RETURNS boolean
      LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
      DECLARE
        kind text := filter ->> 'type';
        attribute jsonb;
        value jsonb := filter -> 'value';
        child jsonb;
      BEGIN
        IF kind IN ('and', 'or') THEN
          FOR child IN SELECT jsonb_array_elements(filter -> 'filters') LOOP
            IF knowledge_filter_matches(child, title, metadata) = (kind = 'or') THEN
              RETURN kind = 'or';
            END IF;
          END LOOP;
          RETURN kind = 'and';
        END IF;
        attribute := CASE WHEN filter -> 'attribute' ->> 'kind' = 'title' THEN to_jsonb(title)
                          ELSE metadata -> (filter -> 'attribute' ->> 'key') END;
        RETURN CASE kind
          WHEN 'eq' THEN coalesce(attribute = value, false)
          WHEN 'ne' THEN attribute IS DISTINCT FROM value
          WHEN 'gt' THEN coalesce(jsonb_typeof(attribute) = jsonb_typeof(value) AND attribute > value, false)
          WHEN 'gte' THEN coalesce(jsonb_typeof(attribute) = jsonb_typeof(value) AND attribute >= value, false)
          WHEN 'lt' THEN coalesce(jsonb_typeof(attribute) = jsonb_typeof(value) AND attribute < value, false)
          WHEN 'lte' THEN coalesce(jsonb_typeof(attribute) = jsonb_typeof(value) AND attribute <= value, false)
          WHEN 'in' THEN coalesce(attribute IN (SELECT jsonb_array_elements(value)), false)
          WHEN 'nin' THEN NOT coalesce(attribute IN (SELECT jsonb_array_elements(value)), false)
        END;
      END
      $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP FUNCTION knowledge_filter_matches(jsonb, text, jsonb)`);
  }
}
