import { PylonConfig, missingNodeFlagsWarning, requireSupportedNode } from '@pylon/config';
import { createApp } from './create-app';

async function main(): Promise<void> {
  process.title = 'pylon-api';
  requireSupportedNode();
  const flagsWarning = missingNodeFlagsWarning();
  if (flagsWarning) console.warn(`pylon api ${flagsWarning}`);
  const app = await createApp();
  const config = app.get(PylonConfig);
  await app.listen(config.port, config.host);
  console.log(`pylon api listening on ${await app.getUrl()}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
