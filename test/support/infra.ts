/** The infrastructure `npm test` started, read from the environment it passes down. */
export function testInfra(): { databaseUrl: string; temporalAddress: string; adminToken: string } {
  const { DATABASE_URL, TEMPORAL_ADDRESS, ADMIN_TOKEN, PYLON_TEST_INFRA } = process.env;
  if (!PYLON_TEST_INFRA || !DATABASE_URL || !TEMPORAL_ADDRESS || !ADMIN_TOKEN) {
    throw new Error('integration tests need the infrastructure of `npm test` (dist-test/test/run.js)');
  }
  return { databaseUrl: DATABASE_URL, temporalAddress: TEMPORAL_ADDRESS, adminToken: ADMIN_TOKEN };
}
