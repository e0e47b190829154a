/**
 * Node flags that make a child process write a V8 CPU profile named `<name>.cpuprofile` into
 * PYLON_CPU_PROFILE_DIR when it exits (to find where time goes); none when it is not set.
 */
export function cpuProfileFlags(name: string): string[] {
  const profileDir = process.env.PYLON_CPU_PROFILE_DIR;
  return profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${name}.cpuprofile`] : [];
}
