/** A missing or malformed setting. The message always names the setting. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`Configuration error: ${setting} ${problem}`);
    this.name = 'ConfigError';
  }
}
