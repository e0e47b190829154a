import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent versions stay immutable, with one exception: key rotation may seal an MCP server's header values
 * again under a new SECRETS_KEY. An update passes only when every other column, every tool without its
 * headers, and every tool's header names are unchanged, i.e. when only sealed values differ.
 */
export class McpHeaderReseal1765900000000 implements MigrationInterface {
  name = 'McpHeaderReseal1765900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION agent_version_tools_without_secrets(tools jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
        SELECT coalesce(jsonb_agg(
                 (tool - 'headers') || jsonb_build_object('header_names',
                   (SELECT coalesce(jsonb_agg(name ORDER BY name), '[]'::jsonb) FROM jsonb_object_keys(coalesce(tool->'headers', '{}'::jsonb)) AS name))
                 ORDER BY position), '[]'::jsonb)
          FROM jsonb_array_elements(tools) WITH ORDINALITY AS element(tool, position)
      $$`);
    await db.query(`
      CREATE OR REPLACE FUNCTION agent_versions_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (to_jsonb(NEW) - 'tools') = (to_jsonb(OLD) - 'tools')
           AND agent_version_tools_without_secrets(NEW.tools) = agent_version_tools_without_secrets(OLD.tools) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'agent versions are immutable';
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE OR REPLACE FUNCTION agent_versions_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'agent versions are immutable';
      END $$`);
    await db.query(`DROP FUNCTION agent_version_tools_without_secrets(jsonb)`);
  }
}
