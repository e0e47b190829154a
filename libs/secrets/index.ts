export { SecretBox, SecretsKeyMissingError, SecretUnreadableError, generateSecretsKey } from './secret-box';
export { SecretsModule } from './secrets.module';
