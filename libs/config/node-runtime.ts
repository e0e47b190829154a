/** The oldest Node Pylon runs on: 22 LTS (Node 20 is end-of-life; nestjs-pino and others require 22.12). */
export const MINIMUM_NODE = [22, 12] as const;

/**
 * Refuses to start on an older Node. `npm install` brings Node 22 (the node-<platform> package) into
 * node_modules/.bin, which npm scripts put first on the PATH, so `npm start` and `npm test` use it.
 */
export function requireSupportedNode(version: string = process.versions.node): void {
  const [major, minor] = version.split('.').map(Number);
  const [minMajor, minMinor] = MINIMUM_NODE;
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return;
  throw new Error(
    `Pylon needs Node ${minMajor}.${minMinor} or later and this is Node ${version}. ` +
      'Run it through npm (npm start, npm test, npm run start:api), which uses the Node 22 that npm install put in node_modules/.bin, or run node_modules/.bin/node.',
  );
}
