/**
 * Node flags that make a child process write a V8 CPU profile named `<name>.cpuprofile` into
 * PYLON_CPU_PROFILE_DIR when it exits (to find where time goes), sampling every
 * PYLON_CPU_PROFILE_INTERVAL_US microseconds (Node's default: 1000); none when the directory is not set.
 */
export function cpuProfileFlags(name: string): string[] {
  const profileDir = process.env.PYLON_CPU_PROFILE_DIR;
  if (!profileDir) return [];
  const interval = process.env.PYLON_CPU_PROFILE_INTERVAL_US;
  return [
    '--cpu-prof',
    '--cpu-prof-dir',
    profileDir,
    '--cpu-prof-name',
    `${name}.cpuprofile`,
    ...(interval ? ['--cpu-prof-interval', interval] : []),
  ];
}
