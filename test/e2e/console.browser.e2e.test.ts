import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Http } from '../support/http';
import { grantTokens } from '../support/ledger';
import { Stack } from '../support/stack';
import { createKey, createTenant, type Tenant } from '../support/tenant';
import { WebhookReceiver } from '../support/webhook-receiver';

const ROOT = join(__dirname, '..', '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SCREENSHOTS = join(ROOT, 'test-artifacts', 'console');
/** With CONSOLE_DOCS_SCREENSHOTS=1 the keys and run screenshots are also copied to docs/console/, which the README shows. */
const DOCS_SCREENSHOTS = process.env.CONSOLE_DOCS_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'console') : null;
const UI_TIMEOUT = 60_000;

/** The browser globals the functions run in the page use (this project compiles without the DOM library). */
interface PageVideo {
  readyState: number;
  duration: number;
  currentTime: number;
  error: { code: number } | null;
}
declare const window: { axe: { run: (context: unknown, options: object) => Promise<{ violations: AxeViolation[] }> } };
declare const document: { querySelector: (selector: string) => PageVideo | null; activeElement: { closest: (selector: string) => unknown } | null };

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** The organisation console in a real headless Chromium, against a real API and worker. */
describe('the console, in a browser', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  /**
   * A one-time secret is in an open modal dialog named by its label: focus is inside it, stays there when
   * Tab is pressed past its last control, and Escape does not close it.
   */
  const assertSecretDialogHoldsFocus = async (label: RegExp) => {
    const dialog = page.getByRole('dialog', { name: label });
    await dialog.waitFor({ timeout: UI_TIMEOUT });
    const focusInDialog = () => page.evaluate(() => !!document.activeElement?.closest('dialog[open]'));
    assert.ok(await focusInDialog(), 'focus moved into the secret dialog');
    for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
    assert.ok(await focusInDialog(), 'focus stays in the secret dialog');
    await page.keyboard.press('Escape');
    assert.ok(await dialog.isVisible(), 'Escape does not close it: only "I have saved it" does');
  };
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

  const url = (path = '') => `${stack.url}/console${path}`;

  /** axe-core on the page as it is now: no serious or critical violation, each printed in full if there is one. */
  const assertAccessible = async (name: string) => {
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map(({ id, impact, help, helpUrl, nodes }) => ({
        id,
        impact,
        help,
        helpUrl,
        nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
      }));
    });
    const grave = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    const report = violations
      .map(
        (violation) =>
          `  [${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n${violation.nodes.map((node) => `      at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\n/g, ' ')}`).join('\n')}`,
      )
      .join('\n');
    if (violations.length > 0) console.log(`axe on the ${name} page: ${violations.length} violation(s)\n${report}`);
    else console.log(`axe on the ${name} page: no violations`);
    assert.equal(grave.length, 0, `serious or critical accessibility violations on the ${name} page:\n${report}`);
  };

  const screenshot = async (name: string) => {
    const file = join(SCREENSHOTS, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    if (DOCS_SCREENSHOTS && (name === 'keys' || name === 'run')) {
      mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
      copyFileSync(file, join(DOCS_SCREENSHOTS, `${name}.png`));
    }
  };

  const signIn = async (apiKey: string) => {
    await page.goto(url('/'));
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: UI_TIMEOUT });
  };

  const openSection = async (name: string, heading = name) => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: UI_TIMEOUT });
  };

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH`);
    receiver = await WebhookReceiver.start();
    [stack, browser] = await Promise.all([
      Stack.start({ env: { WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback', VIDEO_PROVIDER: 'local', LOCAL_RENDER_SECONDS: '1' } }),
      // As root (CI) Chromium's sandbox cannot start; the page is our own console on loopback.
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] }),
    ]);
    http = new Http(stack.url);
    // The demo's kind of agent: the offline extractive model, answering from the knowledge it searches.
    tenant = await createTenant(http, 'local/extractive', { tools: [{ type: 'knowledge_search', match_count: 6 }] });
    await grantTokens(http, tenant.orgId, 2_000_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  });

  after(async () => {
    await browser?.close();
    await Promise.all([stack?.stop(), receiver?.stop()]);
  });

  it('is served at /console: the page for every client route, hashed assets cached for good, a CSP of self only, nothing in the OpenAPI document', async () => {
    const bare = await fetch(url(), { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/console/');

    for (const path of ['/', '/runs', '/runs/6e6e8d3d-0000-4000-8000-000000000000', '/webhooks/x/y']) {
      const response = await fetch(url(path));
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*|https?:/, 'nothing but self');
      const html = await response.text();
      assert.match(html, /<div id="root"><\/div>/);
      assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    }

    const html = await (await fetch(url('/'))).text();
    const script = /<script[^>]+src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, html);
    const asset = await fetch(`${stack.url}${script}`);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.match(asset.headers.get('cache-control') ?? '', /max-age=31536000.*immutable|immutable.*max-age=31536000/);

    const missing = await fetch(url('/assets/nope-12345678.js'));
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: 'not_found' });
    const post = await fetch(url('/'), { method: 'POST' });
    assert.equal(post.status, 405);
    assert.deepEqual(await post.json(), { error: 'method_not_allowed' });

    const openapi = (await (await fetch(`${stack.url}/integration/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(openapi.paths).filter((path) => path.startsWith('/console')),
      [],
    );
  });

  it('signs in with an API key kept in sessionStorage only, and says what its scopes allow', async () => {
    await page.goto(url('/'));
    await page.getByRole('heading', { level: 1, name: 'Pylon console' }).waitFor();
    await assertAccessible('sign-in');
    await screenshot('sign-in');

    await page.getByLabel('API key').fill('pyl_not_a_real_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The code in words, then the server's reason from Error-Detail.
    await page
      .getByRole('alert')
      .filter({ hasText: 'This API key is not valid: unknown, revoked or expired. Unknown API key.' })
      .waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'a refused key is not kept');

    await signIn(tenant.key);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('pylon.console.api-key')), tenant.key);
    assert.deepEqual(await page.context().cookies(), [], 'no cookie');
    assert.ok(!page.url().includes(tenant.key), 'not in the URL');
    await page.getByText(tenant.orgId).waitFor();
    await page.getByText('this key has every scope (*)').waitFor();
    await assertAccessible('overview');
    await screenshot('overview');
  });

  it('API keys: creates a key whose secret is shown once, rolls it with a grace period, and revokes it so that a request with it fails', async () => {
    await openSection('API keys');
    await page.getByLabel('Name', { exact: true }).fill('console test reader');
    await page.getByRole('checkbox', { name: /^runs:read/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretBox = page.getByRole('textbox', { name: /Secret of the new key/ });
    await secretBox.waitFor({ timeout: UI_TIMEOUT });
    const secret = await secretBox.inputValue();
    assert.match(secret, /^pyl_[A-Za-z0-9]{50}$/);
    await page.getByText('it is shown only this once').waitFor();
    await assertSecretDialogHoldsFocus(/Secret of the new key/);
    assert.equal((await http.get('/api/v1/agent-runs', { token: secret })).status, 200, 'the new key works');
    assert.equal((await http.post('/api/v1/agent-runs', { token: secret, body: {} })).status, 403, 'with its scope only');

    await assertAccessible('keys (secret shown)');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    const row = page.getByRole('row').filter({ hasText: 'console test reader' });
    await row.waitFor();
    assert.match(await row.innerText(), /runs:read/);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await row.waitFor();
    assert.ok(!(await page.content()).includes(secret), 'the secret is never shown again');
    await screenshot('keys');

    await row.getByLabel('Grace period for the old secret').selectOption({ label: '1 hour' });
    await row.getByRole('button', { name: 'Roll console test reader' }).click();
    const rolledBox = page.getByRole('textbox', { name: /New secret of “console test reader”/ });
    await rolledBox.waitFor({ timeout: UI_TIMEOUT });
    const rolled = await rolledBox.inputValue();
    assert.match(rolled, /^pyl_/);
    assert.notEqual(rolled, secret);
    assert.equal((await http.get('/api/v1/agent-runs', { token: rolled })).status, 200, 'the new secret works');
    assert.equal((await http.get('/api/v1/agent-runs', { token: secret })).status, 200, 'the old one, within its hour of grace');
    await assertSecretDialogHoldsFocus(/New secret of/);
    await page.getByRole('button', { name: 'I have saved it' }).click();

    await row.getByRole('button', { name: 'Revoke console test reader' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await row.getByText('revoked').waitFor({ timeout: UI_TIMEOUT });
    for (const token of [rolled, secret]) {
      const refused = await http.get('/api/v1/agent-runs', { token });
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.body, { error: 'invalid_api_key' });
    }
    await assertAccessible('keys');
  });

  it('offers only what a narrower key allows, and says so; a key revoked while signed in signs out, saying why', async () => {
    const narrow = await createKey(http, tenant.orgId, ['keys:manage', 'runs:read']);
    await page.getByRole('button', { name: 'Sign out' }).click();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'signing out forgets the key');
    await signIn(narrow);
    const sections = await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();
    assert.deepEqual(sections, ['Overview', 'Runs', 'API keys']);
    await openSection('API keys');
    const offered = await page.getByRole('group', { name: 'Scopes' }).getByRole('checkbox').count();
    assert.equal(offered, 2, 'only the scopes this key has');
    await page.getByText(/Not offered, because this key does not have them/).waitFor();
    await openSection('Runs');
    await page.getByText('Starting and cancelling runs needs the runs:create scope').waitFor();
    await page.goto(url('/videos'));
    await page.getByRole('heading', { level: 1, name: 'Not available with this key' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'needs the video:read scope' }).waitFor();

    await openSection('API keys');
    const mine = page.getByRole('row').filter({ hasText: '(this key)' });
    await mine.getByRole('button', { name: /^Revoke/ }).click();
    await mine.getByText('Revoke the key you are signed in with?').waitFor();
    await mine.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByRole('alert').filter({ hasText: 'This API key is not valid' }).waitFor({ timeout: UI_TIMEOUT });
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'the revoked key is forgotten');
    await signIn(tenant.key);
  });

  it('Knowledge: uploads a Markdown file, follows it until ready, and searches it with scores', async () => {
    await openSection('Knowledge');
    await page.getByLabel(/Text or Markdown file/).setInputFiles({
      name: 'pylon-notes.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Pylon notes\n\nA cancelled run ends failed with the error cancelled.\n\nVideos cost 500 000 tokens each.\n'),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    const row = page.getByRole('row').filter({ hasText: 'pylon-notes.md' });
    await row.getByText('ready', { exact: true }).waitFor({ timeout: UI_TIMEOUT });

    await page.getByLabel('Query').fill('what happens to a cancelled run');
    await page.getByLabel('Search', { exact: true }).selectOption('vector');
    await page.getByRole('button', { name: 'Search' }).click();
    const matches = page.getByRole('list', { name: 'Matches, best first' });
    await matches.waitFor({ timeout: UI_TIMEOUT });
    assert.match(await matches.innerText(), /cancelled run ends failed/);
    const score = Number(await matches.locator('data.score').first().getAttribute('value'));
    assert.ok(score > 0 && score <= 1, `cosine similarity ${score}`);
    assert.match(await matches.innerText(), /found by vector/);
    await assertAccessible('knowledge');
    await screenshot('knowledge');
  });

  it('Runs: starts a run of a chosen agent version and shows its output and live events', async () => {
    await openSection('Runs');
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Test agent' });
    await page.getByLabel('Version').selectOption({ index: 1 });
    await page.getByLabel('Input').fill('What happens to a cancelled run?');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.getByRole('heading', { level: 1, name: /^Run / }).waitFor({ timeout: UI_TIMEOUT });
    const runId = /\/console\/runs\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    assert.ok(runId, page.url());

    const events = page.locator('ol.events');
    await events.getByText('succeeded', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    const output = await page.getByTestId('run-output').innerText();
    assert.match(output, /local\/extractive/);
    assert.match(output, /cancelled run ends failed/, 'the answer cites the uploaded document');
    const eventText = await events.innerText();
    for (const type of ['queued', 'running', 'output_delta', 'succeeded']) assert.match(eventText, new RegExp(type));
    const run = await http.get(`/api/v1/agent-runs/${runId}`, { token: tenant.key });
    assert.equal(run.body.status, 'succeeded');
    assert.equal(output, run.body.output, 'the page shows the output the API has');
    await page.getByText('succeeded', { exact: true }).first().waitFor();
    await assertAccessible('run');
    await screenshot('run');

    await page.getByRole('link', { name: '← All runs' }).click();
    await page.getByLabel('Status').selectOption('succeeded');
    await page.getByRole('link', { name: runId.slice(0, 8) }).waitFor({ timeout: UI_TIMEOUT });
    await assertAccessible('runs');
    await screenshot('runs');
  });

  it('Videos: generates a video with the offline renderer, plays it and extends it; shows the balance and the ledger chart', async () => {
    await openSection('Videos');
    await page.getByTestId('token-balance').waitFor({ timeout: UI_TIMEOUT });
    await page.getByLabel('Prompt').fill('A lighthouse at dawn, waves crashing');
    await page.getByLabel('Aspect ratio').selectOption('16:9');
    await page.getByRole('button', { name: /^Generate/ }).click();
    const card = page.locator('li.card').filter({ hasText: 'A lighthouse at dawn' });
    await card.getByText('completed', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await card.getByRole('button', { name: /^Play/ }).click();
    const video = card.locator('video');
    await video.waitFor();
    await page.waitForFunction(
      () => {
        const element = document.querySelector('li.card video');
        return !!element && element.readyState >= 1 && element.duration > 0 && element.currentTime > 0;
      },
      undefined,
      { timeout: UI_TIMEOUT },
    );
    const played = await video.evaluate((element: PageVideo) => ({
      duration: element.duration,
      currentTime: element.currentTime,
      error: element.error?.code ?? null,
    }));
    assert.ok(played.duration > 0 && played.currentTime > 0 && played.error === null, JSON.stringify(played));

    await page.getByTestId('token-balance').filter({ hasText: '1,500,000' }).waitFor({ timeout: UI_TIMEOUT });

    await card.getByLabel('Extend with').fill('the sun rises over the sea');
    await card.getByRole('button', { name: 'Extend' }).click();
    const extension = page.locator('li.card').filter({ hasText: 'the sun rises over the sea' });
    await extension.getByText('completed', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await extension
      .getByRole('img')
      .or(extension.getByRole('button', { name: /^Play/ }))
      .first()
      .waitFor();
    await page.getByTestId('token-balance').filter({ hasText: '1,000,000' }).waitFor({ timeout: UI_TIMEOUT });
    const chart = page.getByRole('img', { name: 'Token balance over time' });
    await chart.waitFor();
    assert.equal(await chart.locator('circle').count(), 3, 'the grant and two debits');
    await assertAccessible('videos');
    await screenshot('videos');
  });

  it('Webhooks: adds an endpoint (secret shown once), sends a test event and shows the delivery with its attempt; rotates the secret, disables and enables', async () => {
    await openSection('Webhooks');
    await page.getByLabel('URL').fill(`${receiver.baseUrl}/console-hooks`);
    await page.getByLabel('Description (optional)').fill('console test receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretBox = page.getByRole('textbox', { name: /Signing secret of/ });
    await secretBox.waitFor({ timeout: UI_TIMEOUT });
    assert.match(await secretBox.inputValue(), /^whsec_/);
    await assertSecretDialogHoldsFocus(/Signing secret of/);
    await assertAccessible('webhooks');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await screenshot('webhooks');

    await page.getByRole('link', { name: `${receiver.baseUrl}/console-hooks` }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [received] = await receiver.waitFor('/console-hooks', 1);
    assert.equal(received!.json.type, 'webhook_endpoint.test');
    const delivery = page.locator('li.delivery').filter({ hasText: 'webhook_endpoint.test' });
    await delivery.getByText('delivered', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    const attempts = delivery.getByRole('table', { name: /Attempts/ });
    assert.match(await attempts.innerText(), /\b1\b[\s\S]*\b200\b[\s\S]*ok/);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('textbox', { name: 'New signing secret' });
    await rotated.waitFor({ timeout: UI_TIMEOUT });
    assert.match(await rotated.inputValue(), /^whsec_/);
    await assertSecretDialogHoldsFocus(/New signing secret/);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('disabled', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await page.getByRole('button', { name: 'Send test event' }).isDisabled(), true, 'no test event to a disabled endpoint');
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('enabled', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await assertAccessible('webhook endpoint');
    await screenshot('webhook-endpoint');
  });

  it('a page that does not exist says so in its heading and its title; a list that fits on one page shows no pager', async () => {
    await page.goto(url('/no-such-page'));
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await page.title(), 'Page not found · Pylon console');
    await openSection('API keys');
    await page.getByRole('row').filter({ hasText: 'console test reader' }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Pages of keys' }).count(), 0, 'no Previous/Next under a one-page list');
  });

  it('the pages broke no Content-Security-Policy rule and threw nothing', () => {
    // The refused key and the narrow key's refused page answer 401/403 on purpose; nothing else may fail.
    const unexpected = consoleErrors.filter((text) => !/status of 40[13]/.test(text));
    assert.deepEqual(unexpected, []);
  });
});
