import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { pdfWithLines, tinyPng } from '../support/document-files';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { grantTokens } from '../support/ledger';
import { Stack } from '../support/stack';
import { createKey, createTenant, type Tenant } from '../support/tenant';
import { WebhookReceiver } from '../support/webhook-receiver';

const ROOT = join(__dirname, '..', '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SCREENSHOTS = join(ROOT, 'test-artifacts', 'console');
/** With CONSOLE_DOCS_SCREENSHOTS=1 each page's screenshot at both sizes is also copied to docs/console/, which docs/console.md links. */
const DOCS_SCREENSHOTS = process.env.CONSOLE_DOCS_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'console') : null;
const DOCS_PAGES = new Set([
  'sign-in',
  'overview',
  'runs',
  'run',
  'agents',
  'agent',
  'knowledge',
  'document',
  'videos',
  'billing',
  'agent-response-format',
  'run-costs',
  'billing-runs',
  'webhooks',
  'webhook-delivery',
  'keys',
  'playground-waiting',
  'playground',
]);
const UI_TIMEOUT = 60_000;
/** A function tool: the offline model calls it when the input names it, and the run waits for its output. */
const LOOKUP_ORDER = {
  type: 'function',
  name: 'lookup_order',
  description: 'Finds an order by its id.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

/** The sizes every flow runs at: a laptop, and a phone. */
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

/** The browser globals the functions run in the page use (this project compiles without the DOM library). */
interface PageVideo {
  readyState: number;
  duration: number;
  currentTime: number;
  error: { code: number } | null;
}
declare const window: {
  innerWidth: number;
  axe: { run: (context: unknown, options: object) => Promise<{ violations: AxeViolation[] }> };
};
declare const document: {
  documentElement: { scrollWidth: number };
  querySelector: (selector: string) => PageVideo | null;
  activeElement: { closest: (selector: string) => unknown } | null;
};
declare const navigator: { clipboard: { readText: () => Promise<string> } };

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** The organisation console in a real headless Chromium, against a real API and worker, at desktop and phone sizes. */
describe('the console, in a browser', () => {
  let stack: Stack;
  let http: Http;
  let receiver: WebhookReceiver;
  /** OpenAI, as an organisation's own key reaches it: this server has no OpenAI key of its own. */
  let openai: FakeOpenAi;
  let browser: Browser;
  const consoleErrors: string[] = [];
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const url = (path = '') => `${stack.url}/console${path}`;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH`);
    [receiver, openai] = await Promise.all([WebhookReceiver.start(), FakeOpenAi.start()]);
    [stack, browser] = await Promise.all([
      Stack.start({
        env: {
          OPENAI_BASE_URL: openai.baseUrl,
          WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback',
          // An MCP tool's headers are sealed under it (the version form takes them).
          SECRETS_KEY: randomBytes(32).toString('base64'),
          VIDEO_PROVIDER: 'local',
          // Long enough for the console's Cancel button to catch a render.
          LOCAL_RENDER_SECONDS: '3',
          API_KEY_USAGE_FLUSH_MS: '250',
        },
      }),
      // As root (CI) Chromium's sandbox cannot start; the page is our own console on loopback.
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] }),
    ]);
    http = new Http(stack.url);
  });

  after(async () => {
    await browser?.close();
    await Promise.all([stack?.stop(), receiver?.stop(), openai?.stop()]);
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

  for (const viewport of VIEWPORTS) describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => flows(viewport));

  it('the pages broke no Content-Security-Policy rule and threw nothing', () => {
    // The refused key and the narrow key's refused page answer 401/403 on purpose, the image uploaded as a
    // document 415, and the schedule with an unknown time zone 400, once at each size; nothing else may fail.
    const refusedImages = consoleErrors.filter((text) => /status of 415/.test(text));
    assert.ok(refusedImages.length <= VIEWPORTS.length, refusedImages.join('\n'));
    const unexpected = consoleErrors.filter((text) => !/status of (40[13]|415)/.test(text));
    assert.ok(unexpected.filter((text) => /status of 400/.test(text)).length <= VIEWPORTS.length, unexpected.join('\n'));
    assert.deepEqual(
      unexpected.filter((text) => !/status of 400/.test(text)),
      [],
    );
  });

  /** Every flow a customer does, end to end, in a fresh organisation, at one size. */
  function flows(viewport: Viewport) {
    let tenant: Tenant;
    let page: Page;
    /** The pages visited, by name, to sweep again at 320 px. */
    const visited = new Map<string, string>();

    /**
     * The page as it is now, in the light and the dark theme: no wider than the viewport (WCAG 1.4.10, which axe
     * cannot see), and no serious or critical axe-core violation (each printed in full if there is one).
     */
    const assertPage = async (name: string, { screenshot = true } = {}) => {
      visited.set(name, new URL(page.url()).pathname.replace(/^\/console/, '') || '/');
      await assertFitsViewport(name);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await assertAccessible(`${name} (${colorScheme}, ${viewport.name})`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      if (screenshot) await takeScreenshot(name);
    };

    /** No wider than the viewport; else the elements that stick out (not counting what scrolls inside its own box). */
    const assertFitsViewport = async (name: string) => {
      const { scrollWidth, innerWidth, outside } = await page.evaluate(() => {
        const doc = (globalThis as any).document;
        const width: number = (globalThis as any).innerWidth;
        const clipped = (element: any) => {
          for (let parent = element.parentElement; parent && parent !== doc.body; parent = parent.parentElement) {
            if (['auto', 'scroll', 'hidden'].includes((globalThis as any).getComputedStyle(parent).overflowX)) return true;
          }
          return false;
        };
        const outside = [...doc.querySelectorAll('body *')]
          .filter((element: any) => element.getBoundingClientRect().right > width + 1 && !clipped(element))
          .slice(0, 5)
          .map(
            (element: any) =>
              `<${element.tagName.toLowerCase()} class="${element.className}">${String(element.textContent).slice(0, 40)}… to ${Math.round(element.getBoundingClientRect().right)} px`,
          );
        return { scrollWidth: doc.documentElement.scrollWidth as number, innerWidth: width, outside };
      });
      assert.ok(scrollWidth <= innerWidth, `the ${name} page is ${scrollWidth} px wide in a ${innerWidth} px viewport: ${outside.join('; ')}`);
    };

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
      assert.equal(grave.length, 0, `serious or critical accessibility violations on the ${name} page:\n${report}`);
    };

    const takeScreenshot = async (name: string) => {
      const file = join(SCREENSHOTS, `${name}.${viewport.name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      if (DOCS_SCREENSHOTS && DOCS_PAGES.has(name)) {
        mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
        copyFileSync(file, join(DOCS_SCREENSHOTS, `${name}.${viewport.name}.png`));
      }
    };

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

    const signIn = async (apiKey: string) => {
      await page.goto(url('/'));
      await page.getByLabel('API key').fill(apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: UI_TIMEOUT });
    };

    /** Through the header's navigation, opening the Menu first where the sections are folded away (a phone). */
    const openSection = async (name: string, heading = name) => {
      const menu = page.getByRole('button', { name: 'Menu' });
      if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') await menu.click();
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: UI_TIMEOUT });
    };

    before(async () => {
      // The demo's kind of agent: the offline extractive model, answering from the knowledge it searches.
      tenant = await createTenant(http, 'local/extractive', { tools: [{ type: 'knowledge_search', match_count: 6 }] });
      await grantTokens(http, tenant.orgId, 2_500_000);
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
      page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(`${viewport.name}: ${message.text()}`);
      });
      page.on('pageerror', (error) => consoleErrors.push(`${viewport.name}: uncaught: ${error.message}`));
    });

    after(async () => {
      await page?.context().close();
    });

    // What the page showed at the end of each test, to see what a failure looked like.
    afterEach(async (context) => {
      const slug = context.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
      await page?.screenshot({ path: join(SCREENSHOTS, `after-${slug}.${viewport.name}.png`) }).catch(() => undefined);
    });

    it('signs in with an API key kept in sessionStorage only, and says what its scopes allow', async () => {
      await page.goto(url('/'));
      await page.getByRole('heading', { level: 1, name: 'Pylon console' }).waitFor();
      await assertPage('sign-in');

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
      if (viewport.name === 'phone') {
        assert.equal(await page.getByRole('navigation', { name: 'Sections' }).isVisible(), false, 'the sections fold behind the Menu button');
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Runs' }).waitFor();
        await assertPage('menu-open');
        await page.getByRole('button', { name: 'Menu' }).click();
      }
      await assertPage('overview-new');
    });

    it('API keys: creates a key whose secret is shown once, rolls it with a grace period, and revokes it so that a request with it fails', async () => {
      await openSection('API keys');
      // A long name wraps inside its cell instead of widening the page.
      await page.getByLabel('Name', { exact: true }).fill(`console test reader ${'with a very long name '.repeat(8)}`.trim());
      await page.getByRole('checkbox', { name: /^runs:read/ }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const secretBox = page.getByRole('textbox', { name: /Secret of the new key/ });
      await secretBox.waitFor({ timeout: UI_TIMEOUT });
      const secret = await secretBox.inputValue();
      assert.match(secret, /^pyl_[A-Za-z0-9]{50}$/);
      await page.getByText('it is shown only this once').waitFor();
      await assertSecretDialogHoldsFocus(/Secret of the new key/);
      await page.getByRole('dialog').getByRole('button', { name: 'Copy' }).click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret, 'Copy puts the secret on the clipboard');
      assert.equal((await http.get('/api/v1/agent-runs', { token: secret })).status, 200, 'the new key works');
      assert.equal((await http.post('/api/v1/agent-runs', { token: secret, body: {} })).status, 403, 'with its scope only');

      await assertPage('keys-secret-shown');
      await page.getByRole('button', { name: 'I have saved it' }).click();
      const row = page.getByRole('row').filter({ hasText: 'console test reader' });
      await row.waitFor();
      assert.match(await row.innerText(), /runs:read/);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      await row.waitFor();
      assert.ok(!(await page.content()).includes(secret), 'the secret is never shown again');
      // The two requests made with the new key, counted (the API writes its counts every 250 ms here).
      await row.getByRole('cell').nth(5).filter({ hasText: /^2$/ }).waitFor({ timeout: UI_TIMEOUT });
      await assertPage('keys');

      const name = (await row.getByRole('cell').first().innerText()).trim();
      await row.getByLabel('Grace period for the old secret').selectOption({ label: '1 hour' });
      await row.getByRole('button', { name: `Roll ${name}` }).click();
      const rolledBox = page.getByRole('textbox', { name: /New secret of “console test reader/ });
      await rolledBox.waitFor({ timeout: UI_TIMEOUT });
      const rolled = await rolledBox.inputValue();
      assert.match(rolled, /^pyl_/);
      assert.notEqual(rolled, secret);
      assert.equal((await http.get('/api/v1/agent-runs', { token: rolled })).status, 200, 'the new secret works');
      assert.equal((await http.get('/api/v1/agent-runs', { token: secret })).status, 200, 'the old one, within its hour of grace');
      await assertSecretDialogHoldsFocus(/New secret of/);
      await page.getByRole('button', { name: 'I have saved it' }).click();

      await row.getByRole('button', { name: `Revoke ${name}` }).click();
      await row.getByRole('button', { name: 'Yes, revoke' }).click();
      await row.getByText('revoked').waitFor({ timeout: UI_TIMEOUT });
      for (const token of [rolled, secret]) {
        const refused = await http.get('/api/v1/agent-runs', { token });
        assert.equal(refused.status, 401);
        assert.deepEqual(refused.body, { error: 'invalid_api_key' });
      }
      await assertPage('keys-revoked', { screenshot: false });
    });

    it('offers only what a narrower key allows, and says so; a key revoked while signed in signs out, saying why', async () => {
      const narrow = await createKey(http, tenant.orgId, ['keys:manage', 'runs:read']);
      const menu = page.getByRole('button', { name: 'Menu' });
      if (await menu.isVisible()) await menu.click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'signing out forgets the key');
      await signIn(narrow);
      const sections = await page.locator('nav[aria-label="Sections"] a').allTextContents();
      assert.deepEqual(sections, ['Overview', 'Runs', 'Schedules', 'API keys']);
      await page.getByRole('heading', { name: 'Agent runs' }).waitFor({ timeout: UI_TIMEOUT });
      assert.equal(await page.getByRole('heading', { name: 'Videos' }).count(), 0, 'no video figures without video:read');
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

    it('Agents: creates an agent and a version; the model picker says which providers this server can run', async () => {
      await openSection('Agents');
      await page.getByLabel('Name').fill('Support bot');
      await page.getByRole('button', { name: 'Create agent' }).click();
      await page.getByRole('status').filter({ hasText: 'Agent “Support bot” created' }).waitFor({ timeout: UI_TIMEOUT });
      await assertPage('agents');
      await page.getByRole('link', { name: 'Give it a first version' }).click();
      await page.getByRole('heading', { level: 1, name: 'Agent “Support bot”' }).waitFor({ timeout: UI_TIMEOUT });
      await page.getByText('No versions yet').waitFor();

      const model = page.getByLabel('Model', { exact: true });
      await model.locator('optgroup[label="openai (needs a key: see Models)"]').waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await model.selectOption('openai/');
      await page.getByText('The organisation has no openai key and this server has no key of its own').waitFor();
      assert.ok(await page.getByRole('button', { name: 'Create version' }).isDisabled(), 'no version on a provider the organisation cannot run');
      await page.getByLabel('openai model name').waitFor();
      await model.selectOption('local/extractive');
      await page.getByLabel('Instructions').fill('Answer from the documentation, briefly.');
      await page.getByRole('button', { name: 'Create version' }).click();
      await page.getByRole('status').filter({ hasText: 'Version 1 created with local/extractive' }).waitFor({ timeout: UI_TIMEOUT });
      const version = page.getByRole('row').filter({ hasText: 'v1' });
      await version.waitFor();
      assert.match(await version.innerText(), /local\/extractive[\s\S]*knowledge_search \(6\)/);
      await version.getByRole('button', { name: /^Copy the id of version 1/ }).click();
      await version.getByText('Copied').waitFor();
      assert.match(await page.evaluate(() => navigator.clipboard.readText()), /^[0-9a-f-]{36}$/);
      await assertPage('agent');
    });

    it('Agents: a version with an MCP server, its header typed into a masked input and shown masked', async () => {
      const secret = `Bearer console-${randomBytes(8).toString('hex')}`;
      await page.getByRole('button', { name: 'Add an MCP server' }).click();
      const server = page.getByRole('group', { name: 'MCP server 1' });
      await server.getByLabel('Server label').fill('docs');
      await server.getByLabel('Server URL').fill('https://mcp.example.com/mcp');
      await server.getByLabel(/Allowed tools/).fill('search, fetch');
      await server.getByRole('button', { name: 'Add a header to docs' }).click();
      await server.getByLabel('Header name').fill('Authorization');
      const value = server.getByLabel('Header value');
      assert.equal(await value.getAttribute('type'), 'password');
      await value.fill(secret);
      await server.getByLabel('Each call of docs waits for a person to approve it').check();
      await assertPage('agent-mcp-form', { screenshot: false });
      await page.getByRole('button', { name: 'Create version' }).click();
      await page.getByRole('status').filter({ hasText: 'Version 2 created with local/extractive' }).waitFor({ timeout: UI_TIMEOUT });
      const version = page.getByRole('row').filter({ hasText: 'v2' });
      await version.waitFor();
      assert.match(await version.innerText(), /docs \(mcp: search, fetch; Authorization: \*{8}; needs approval\)/);
      assert.ok(!(await page.content()).includes(secret.slice('Bearer '.length)), 'the header value is nowhere on the page');
      assert.equal(await page.getByRole('group', { name: 'MCP server 1' }).count(), 0, 'the form is cleared');
    });

    it("Models: the organisation's own OpenAI key typed masked, shown masked, checked (refused, then accepted); the version picker then offers openai; removed after a confirm", async () => {
      const agentPath = new URL(page.url()).pathname.replace(/^\/console/, '');
      const ownKey = `sk-console-${randomBytes(12).toString('hex')}`;
      await openSection('Models');
      const openaiRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'openai', exact: true }) });
      await openaiRow.getByText('not available: set a key').waitFor({ timeout: UI_TIMEOUT });
      const keyInput = page.getByLabel('openai API key');
      assert.equal(await keyInput.getAttribute('type'), 'password');
      await keyInput.fill(ownKey);
      await page.getByRole('group', { name: 'openai', exact: true }).getByRole('button', { name: 'Save key' }).click();
      const hint = `${ownKey.slice(0, 3)}…${ownKey.slice(-4)}`;
      await page.getByRole('group', { name: 'openai', exact: true }).getByText(hint).waitFor({ timeout: UI_TIMEOUT });
      assert.ok(!(await page.content()).includes(ownKey), 'the key is nowhere on the page');
      await openaiRow.getByText('the organisation’s own key').waitFor({ timeout: UI_TIMEOUT });

      openai.acceptedKeys = new Set(['sk-some-other-key']);
      await page.getByRole('button', { name: 'Check the openai key' }).click();
      await page.getByRole('status').filter({ hasText: 'openai refused the key:' }).waitFor({ timeout: UI_TIMEOUT });
      openai.acceptedKeys = null;
      await page.getByRole('button', { name: 'Check the openai key' }).click();
      await page.getByRole('status').filter({ hasText: 'openai accepted the key.' }).waitFor({ timeout: UI_TIMEOUT });
      await assertPage('models');

      await page.goto(url(agentPath));
      const model = page.getByLabel('Model', { exact: true });
      await model.locator('optgroup[label="openai"]').waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await model.selectOption('openai/');
      await page.getByText('Runs call openai on the organisation’s own key.').waitFor();
      await model.selectOption('local/extractive');

      await openSection('Models');
      await page.getByRole('button', { name: 'Remove the openai key' }).click();
      await page.getByRole('group', { name: 'Confirm removing the openai key' }).getByRole('button', { name: 'Yes, remove' }).click();
      await page.getByRole('group', { name: 'openai', exact: true }).getByText('No key of the organisation’s own.').waitFor({ timeout: UI_TIMEOUT });
      await openaiRow.getByText('not available: set a key').waitFor({ timeout: UI_TIMEOUT });
      const left = await http.get('/api/v1/model-credentials', { token: tenant.key });
      assert.deepEqual(left.body, { data: [] });
    });

    it('Knowledge: two files chosen at once, each with its progress bar then its status; a pasted text; search with scores and page numbers', async () => {
      await openSection('Knowledge');
      const dir = mkdtempSync(join(tmpdir(), 'console-files-'));
      const notes = join(dir, 'pylon-notes.md');
      writeFileSync(notes, '# Pylon notes\n\nA cancelled run ends failed with the error cancelled.\n\nVideos cost 500 000 tokens each.\n');
      const manual = join(dir, 'operator-manual.pdf');
      writeFileSync(
        manual,
        await pdfWithLines([
          ['Pylon operator manual', 'Read this before you start the server.'],
          ['Backups of the database run nightly at two in the morning.', 'Restores take about ten minutes.'],
        ]),
      );
      await page.getByLabel('Files (PDF, DOCX, HTML, Markdown, text)').setInputFiles([notes, manual]);
      const uploads = page.getByRole('list', { name: 'Uploads, newest first' });
      for (const name of ['pylon-notes.md', 'operator-manual.pdf']) {
        const upload = uploads.getByRole('listitem').filter({ hasText: name });
        await upload.getByText('ready', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
        // Its own progress bar, full once its bytes were sent.
        assert.equal(await upload.getByRole('progressbar', { name: `Upload of ${name}` }).getAttribute('value'), '100');
        await upload.getByText('100 % uploaded').waitFor();
        await page.getByRole('row').filter({ hasText: name }).getByText('ready', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      }
      // And the files added together, as one progress.
      await page.getByRole('status').filter({ hasText: '2 files: 2 ready' }).waitFor({ timeout: UI_TIMEOUT });
      assert.equal(await page.getByRole('progressbar', { name: 'All files added' }).getAttribute('value'), '2');

      // A type the API does not read is refused, with the reason it gave (Error-Detail), in words.
      await page.getByLabel('Files (PDF, DOCX, HTML, Markdown, text)').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: tinyPng() });
      await uploads
        .getByRole('listitem')
        .filter({ hasText: 'photo.png' })
        .getByRole('alert')
        .filter({ hasText: /^The API does not take this kind of content\. The file is .+; Pylon reads PDF, DOCX, HTML, Markdown and plain text/ })
        .waitFor({ timeout: UI_TIMEOUT });
      await page.getByRole('status').filter({ hasText: '3 files: 2 ready, 1 refused' }).waitFor({ timeout: UI_TIMEOUT });

      await page.getByLabel('Title', { exact: true }).fill('Refund policy');
      await page.getByLabel('Text', { exact: true }).fill('Refunds: a cancelled video gives its 500 000 tokens back to the balance.');
      await page.getByRole('button', { name: 'Add document' }).click();
      await page.getByRole('status').filter({ hasText: 'Added “Refund policy”' }).waitFor({ timeout: UI_TIMEOUT });
      await page.getByRole('row').filter({ hasText: 'Refund policy' }).getByText('ready', { exact: true }).waitFor({ timeout: UI_TIMEOUT });

      await page.getByLabel('Query').fill('what happens to a cancelled run');
      await page.getByLabel('Search', { exact: true }).selectOption('vector');
      await page.getByRole('button', { name: 'Search' }).click();
      const matches = page.getByRole('list', { name: 'Matches, best first' });
      await matches.waitFor({ timeout: UI_TIMEOUT });
      assert.match(await matches.innerText(), /cancelled run ends failed/);
      const score = Number(await matches.locator('data.score').first().getAttribute('value'));
      assert.ok(score > 0 && score <= 1, `cosine similarity ${score}`);
      assert.match(await matches.innerText(), /found by vector/);

      // A match in the PDF says which page it is on.
      await page.getByLabel('Query').fill('backups nightly');
      await page.getByLabel('Search', { exact: true }).selectOption('keyword');
      await page.getByRole('button', { name: 'Search' }).click();
      await matches
        .getByRole('listitem')
        .filter({ hasText: 'Backups of the database run nightly' })
        .getByText(/operator-manual\.pdf · (p\. 2|pp\. 1–2) ·/)
        .waitFor({ timeout: UI_TIMEOUT });
      await assertPage('knowledge');
    });

    it('Knowledge bases: one created and chosen, a text added to it, search scoped to it; an empty one deleted at once; a file dropped into another, deleted with it after a confirm', async () => {
      const picker = page.getByLabel('Knowledge base', { exact: true });
      await page.getByLabel('New knowledge base').fill('Handbook');
      await page.getByRole('button', { name: 'Create base' }).click();
      await page.getByRole('status').filter({ hasText: 'Knowledge base “Handbook” created, and chosen' }).waitFor({ timeout: UI_TIMEOUT });
      await picker.locator('option:checked', { hasText: /^Handbook · 0 documents$/ }).waitFor({ state: 'attached' });
      const options = (await picker.locator('option').allTextContents()).join('\n');
      assert.match(options, /\(default\) · 3 documents/, 'the default base, marked, holds the documents added before');
      await page.getByRole('heading', { level: 2, name: 'Documents in “Handbook”' }).waitFor();
      await page.getByText('No documents yet.').waitFor({ timeout: UI_TIMEOUT });
      await page.getByText('They go into Handbook.').waitFor();

      await page.getByLabel('Title', { exact: true }).fill('Holiday rota');
      await page.getByLabel('Text', { exact: true }).fill('The support desk is closed on public holidays; the on-call engineer answers pages.');
      await page.getByRole('button', { name: 'Add document' }).click();
      await page.getByRole('row').filter({ hasText: 'Holiday rota' }).getByText('ready', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      assert.equal(await page.getByRole('row').filter({ hasText: 'pylon-notes.md' }).count(), 0, 'only the chosen base’s documents are listed');

      await page.getByLabel('Query').fill('support desk holidays');
      await page.getByLabel('In', { exact: true }).selectOption({ label: 'Handbook' });
      await page.getByRole('button', { name: 'Search' }).click();
      const matches = page.getByRole('list', { name: 'Matches, best first' });
      await matches.getByText('The support desk is closed').waitFor({ timeout: UI_TIMEOUT });
      assert.doesNotMatch(await matches.innerText(), /pylon-notes|operator-manual|Refund/);
      assert.match(await matches.innerText(), /in Handbook/);
      await assertPage('knowledge-bases', { screenshot: false });

      // An empty base goes at once.
      await page.getByLabel('New knowledge base').fill('Scratch');
      await page.getByRole('button', { name: 'Create base' }).click();
      await page.getByRole('status').filter({ hasText: 'Knowledge base “Scratch” created' }).waitFor({ timeout: UI_TIMEOUT });
      await page.getByRole('button', { name: 'Delete the knowledge base “Scratch”' }).click();
      await page.getByRole('status').filter({ hasText: 'Knowledge base deleted.' }).waitFor({ timeout: UI_TIMEOUT });
      await picker.locator('option', { hasText: 'Scratch' }).waitFor({ state: 'detached', timeout: UI_TIMEOUT });

      // One with documents only with them, after a confirm.
      await page.getByLabel('New knowledge base').fill('Old notes');
      await page.getByRole('button', { name: 'Create base' }).click();
      await page.getByRole('status').filter({ hasText: 'Knowledge base “Old notes” created' }).waitFor({ timeout: UI_TIMEOUT });
      // A file dropped on the zone goes into the chosen base.
      await page.getByText('They go into Old notes.').waitFor();
      const dropped = await page.evaluateHandle(() => {
        const browser = globalThis as any;
        const transfer = new browser.DataTransfer();
        transfer.items.add(new browser.File(['This page is out of date.'], 'outdated-page.txt', { type: 'text/plain' }));
        return transfer;
      });
      await page.locator('.drop-zone').dispatchEvent('dragover', { dataTransfer: dropped });
      await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
      await page
        .getByRole('list', { name: 'Uploads, newest first' })
        .getByRole('listitem')
        .filter({ hasText: 'outdated-page.txt' })
        .getByText('ready', { exact: true })
        .waitFor({ timeout: UI_TIMEOUT });
      await page.getByRole('row').filter({ hasText: 'outdated-page.txt' }).waitFor({ timeout: UI_TIMEOUT });
      await picker.locator('option:checked', { hasText: 'Old notes · 1 document' }).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await page.getByRole('button', { name: 'Delete the knowledge base “Old notes”' }).click();
      const confirm = page.getByRole('group', { name: 'Confirm deleting Old notes' });
      await confirm.getByText('Delete “Old notes” and its 1 document?').waitFor();
      await confirm.getByRole('button', { name: 'Yes, delete them all' }).click();
      await page.getByRole('status').filter({ hasText: 'Knowledge base deleted.' }).waitFor({ timeout: UI_TIMEOUT });
      await picker.locator('option', { hasText: 'Old notes' }).waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      await page.getByRole('row').filter({ hasText: 'pylon-notes.md' }).waitFor({ timeout: UI_TIMEOUT });
      assert.equal(await page.getByRole('row').filter({ hasText: 'outdated-page.txt' }).count(), 0, 'its document went with it');
    });

    it('Document: revision, file with download, and Replace with new text: search serves the old revision until revision 2 is ready', async () => {
      await page.getByRole('row').filter({ hasText: 'operator-manual.pdf' }).getByRole('link', { name: 'operator-manual.pdf' }).click();
      await page.getByRole('heading', { level: 1, name: 'Document “operator-manual.pdf”' }).waitFor({ timeout: UI_TIMEOUT });
      assert.match(await page.getByTestId('document-file').innerText(), /^operator-manual\.pdf · pdf \(application\/pdf\) · [\d.,]+ (B|KB)$/);
      await page.getByRole('button', { name: 'Download operator-manual.pdf' }).click();
      const save = page.getByRole('link', { name: 'Save operator-manual.pdf' });
      await save.waitFor({ timeout: UI_TIMEOUT });
      assert.match((await save.getAttribute('href')) ?? '', /^blob:/, 'fetched with the key, then offered as an object URL');
      assert.equal(await save.getAttribute('download'), 'operator-manual.pdf');

      await page.getByRole('link', { name: '← All documents' }).click();
      await page.getByRole('heading', { level: 1, name: 'Knowledge' }).waitFor({ timeout: UI_TIMEOUT });
      await page.getByRole('row').filter({ hasText: 'Refund policy' }).getByRole('link', { name: 'Refund policy' }).click();
      await page.getByRole('heading', { level: 1, name: 'Document “Refund policy”' }).waitFor({ timeout: UI_TIMEOUT });
      assert.equal(await page.getByTestId('document-revision').innerText(), '1 (searchable)');
      await page.getByText('none: made from text').waitFor();
      await page.getByLabel('New text', { exact: true }).fill('Refunds: a cancelled or failed video gives its 500 000 tokens back within a minute.');
      await page.getByRole('button', { name: 'Replace' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Revision 2 accepted: search serves revision 1 until it is ready.' })
        .waitFor({ timeout: UI_TIMEOUT });
      await page.getByTestId('document-revision').getByText('2 (searchable)').waitFor({ timeout: UI_TIMEOUT });
      assert.equal(await page.getByTestId('document-ready-revision').innerText(), 'revision 2');
      await assertPage('document-replaced', { screenshot: false });
    });

    it('Agents: a version whose knowledge_search searches only the knowledge bases ticked', async () => {
      await openSection('Agents');
      await page.getByRole('link', { name: 'Support bot' }).click();
      await page.getByRole('heading', { level: 1, name: 'Agent “Support bot”' }).waitFor({ timeout: UI_TIMEOUT });
      const choice = page.getByRole('group', { name: 'Knowledge bases it searches' });
      await choice.getByRole('checkbox', { name: /^Handbook · 1 document$/ }).check({ timeout: UI_TIMEOUT });
      await assertPage('agent-knowledge-bases', { screenshot: false });
      await page.getByRole('button', { name: 'Create version' }).click();
      await page.getByRole('status').filter({ hasText: 'Version 3 created with local/extractive' }).waitFor({ timeout: UI_TIMEOUT });
      const version = page.getByRole('row').filter({ hasText: 'v3' });
      assert.match(await version.innerText(), /knowledge_search \(6, in 1 knowledge base\)/);
      const bases = await http.get('/api/v1/knowledge-bases', { token: tenant.key });
      const handbook = (bases.body.data as Array<{ name: string; knowledge_base_id: string }>).find((base) => base.name === 'Handbook');
      const agentId = new URL(page.url()).pathname.split('/').pop()!;
      const versions = await http.get(`/api/v1/agents/${agentId}/versions`, { token: tenant.key });
      const v3 = (versions.body.data as Array<{ version: number; tools: Array<{ type: string; knowledge_base_ids?: string[] }> }>).find(
        (candidate) => candidate.version === 3,
      );
      assert.deepEqual(v3?.tools.find((tool) => tool.type === 'knowledge_search')?.knowledge_base_ids, [handbook?.knowledge_base_id]);
    });

    it('Runs: starts a run and shows it as a timeline: the search it made, the documents it cited (linked), its output', async () => {
      await openSection('Runs');
      await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Test agent' });
      await page.getByLabel('Version').selectOption({ index: 1 });
      await page.getByLabel('Input').fill('What happens to a cancelled run?');
      await page.getByRole('button', { name: 'Start run' }).click();
      await page.getByRole('heading', { level: 1, name: /^Run / }).waitFor({ timeout: UI_TIMEOUT });
      const runId = /\/console\/runs\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
      assert.ok(runId, page.url());

      const timeline = page.getByRole('list', { name: 'What the run did, in order' });
      await timeline.getByText('Succeeded', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      const output = await page.getByTestId('run-output').innerText();
      assert.match(output, /local\/extractive/);
      assert.match(output, /cancelled run ends failed/, 'the answer cites the uploaded document');
      const steps = await timeline.innerText();
      for (const step of ['Queued', 'Started on a worker', 'Called knowledge_search', 'found', 'Wrote the output', 'Succeeded'])
        assert.match(steps, new RegExp(step));
      const run = await http.get(`/api/v1/agent-runs/${runId}`, { token: tenant.key });
      assert.equal(run.body.status, 'succeeded');
      assert.equal(output, run.body.output, 'the page shows the output the API has');
      await page.getByRole('link', { name: /^v1 · local\/extractive/ }).waitFor();
      await assertPage('run');

      await timeline.getByRole('link', { name: 'pylon-notes.md' }).click();
      await page.getByRole('heading', { level: 1, name: 'Document “pylon-notes.md”' }).waitFor({ timeout: UI_TIMEOUT });
      assert.match(await page.getByTestId('document-file').innerText(), /^pylon-notes\.md · (markdown|text) /);
      await assertPage('document');

      await openSection('Runs');
      await page.getByLabel('Status').selectOption('succeeded');
      await page.getByRole('link', { name: runId.slice(0, 8) }).waitFor({ timeout: UI_TIMEOUT });
      await assertPage('runs');

      // An answer from the PDF cites its pages ("[doc <id>, pp. 1-2]"), listed under the output.
      await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Test agent' });
      await page.getByLabel('Version').selectOption({ index: 1 });
      await page.getByLabel('Input').fill('When do backups of the database run nightly?');
      await page.getByRole('button', { name: 'Start run' }).click();
      await page.getByRole('heading', { level: 1, name: /^Run / }).waitFor({ timeout: UI_TIMEOUT });
      const cited = page.getByRole('list', { name: 'Documents the answer cites' });
      await cited
        .getByRole('listitem')
        .filter({ hasText: /^operator-manual\.pdf, (p\. 2|pp\. 1–2)$/ })
        .waitFor({ timeout: UI_TIMEOUT });
      assert.match(await page.getByTestId('run-output').innerText(), /\[doc [0-9a-f-]{36}, (p\. 2|pp\. 1-2)\]/);
      await assertPage('run-cited-pages', { screenshot: false });
    });

    it('Videos: generates a video with the offline renderer, plays it and extends it; a cancelled one says why and that it was refunded', async () => {
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
      await page.getByTestId('token-balance').filter({ hasText: '2,000,000' }).waitFor({ timeout: UI_TIMEOUT });

      await card.getByLabel('Extend with').fill('the sun rises over the sea');
      await card.getByRole('button', { name: 'Extend' }).click();
      const extension = page.locator('li.card').filter({ hasText: 'the sun rises over the sea' });
      await extension.getByText('completed', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      await page.getByTestId('token-balance').filter({ hasText: '1,500,000' }).waitFor({ timeout: UI_TIMEOUT });

      await page.getByLabel('Prompt').fill('A storm that never comes');
      await page.getByRole('button', { name: /^Generate/ }).click();
      const cancelled = page.locator('li.card').filter({ hasText: 'A storm that never comes' });
      await cancelled.getByRole('button', { name: 'Cancel' }).click();
      await cancelled.getByText('cancelled, 500,000 tokens refunded').waitFor({ timeout: UI_TIMEOUT });
      await page.getByTestId('token-balance').filter({ hasText: '1,500,000' }).waitFor({ timeout: UI_TIMEOUT });
      await assertPage('videos');
    });

    it('Usage & billing: the ledger as a table with the refund, and a balance chart that ends at the balance', async () => {
      await openSection('Usage & billing');
      await page.getByTestId('billing-balance').filter({ hasText: '1,500,000' }).waitFor({ timeout: UI_TIMEOUT });
      const ledger = page.getByRole('table', { name: 'Ledger entries, newest first' });
      await ledger.getByRole('row').filter({ hasText: 'Refund' }).waitFor({ timeout: UI_TIMEOUT });
      const rows = await ledger.getByRole('row').allInnerTexts();
      assert.equal(rows.length, 1 + 5, `a header and grant, 3 charges, 1 refund: ${rows.join(' | ')}`);
      assert.match(rows[1]!, /Refund[\s\S]*\+500,000[\s\S]*1,500,000[\s\S]*refund: cancelled[\s\S]*refund of charge/);
      assert.match(rows[rows.length - 1]!, /Grant[\s\S]*\+2,500,000[\s\S]*2,500,000[\s\S]*test grant/);
      const chart = page.getByRole('img', { name: 'Token balance over time' });
      assert.equal(await chart.locator('circle').count(), 5, 'one point per entry');
      assert.match((await chart.locator('desc').textContent()) ?? '', /to now \(1,500,000\)/, 'the chart ends at the balance');
      await assertPage('billing');
    });

    it('Webhooks: an endpoint, its log with request and response, Retry now, bulk recovery, filters, and editing', async () => {
      const hook = `/console-hooks-${viewport.name}`;
      receiver.answerWithHeaders(hook, { 'x-receiver': 'console test' });
      await openSection('Webhooks');
      await page.getByLabel('URL').fill(`${receiver.baseUrl}${hook}`);
      await page.getByLabel('Description (optional)').fill('console test receiver');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secretBox = page.getByRole('textbox', { name: /Signing secret of/ });
      await secretBox.waitFor({ timeout: UI_TIMEOUT });
      assert.match(await secretBox.inputValue(), /^whsec_/);
      await assertSecretDialogHoldsFocus(/Signing secret of/);
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await assertPage('webhooks');

      await page.getByRole('link', { name: `${receiver.baseUrl}${hook}` }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
      const log = page.getByRole('table', { name: 'Deliveries, newest first' });

      // A delivered test event: its request as sent, and the receiver's answer.
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByRole('status').filter({ hasText: 'Test event sent' }).waitFor();
      const [received] = await receiver.waitFor(hook, 1);
      assert.equal(received!.json.type, 'webhook_endpoint.test');
      const first = log.locator('tr.delivery').first();
      await first.getByText('delivered', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      await first.getByRole('button', { name: /^Show/ }).click();
      const details = log.locator('tr.delivery-details').first();
      assert.equal(JSON.parse(await details.getByLabel('Request payload').innerText()).id, received!.json.id, 'the payload sent');
      await details.getByText('Headers sent on attempt 1').click();
      assert.match(await details.innerText(), new RegExp(`webhook-signature\\s+${escape(String(received!.headers['webhook-signature']))}`));
      await details.getByText('Response headers of attempt 1').click();
      assert.match(await details.innerText(), /x-receiver\s+console test/);
      assert.match(await details.getByLabel('Response body of attempt 1').innerText(), /^ok$/);
      await assertPage('webhook-delivery');

      // A failing attempt, then Retry now instead of waiting for the schedule: a second attempt, delivered.
      receiver.respond(hook, 500);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await receiver.waitFor(hook, 2);
      const failing = log.locator('tr.delivery').first();
      await failing.getByText('pending', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      await failing.getByRole('cell').nth(2).filter({ hasText: /^1$/ }).waitFor({ timeout: UI_TIMEOUT });
      await failing.getByRole('button', { name: 'Retry now' }).click();
      await page.getByRole('status').filter({ hasText: 'Retrying now: a new attempt of webhook_endpoint.test' }).waitFor();
      await failing.getByText('delivered', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      assert.equal((await failing.getByRole('cell').nth(2).innerText()).trim(), '2', 'two attempts');
      const retried = receiver.at(hook).slice(-2);
      assert.equal(retried[0]!.headers['webhook-id'], retried[1]!.headers['webhook-id'], 'the same message, sent again');

      // A delivery that failed for good (its endpoint was disabled when it was retried), recovered in bulk.
      receiver.respond(hook, 500);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await receiver.waitFor(hook, 4);
      await log.locator('tr.delivery').first().getByText('pending', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('status').filter({ hasText: 'Endpoint disabled' }).waitFor();
      await log.locator('tr.delivery').first().getByRole('button', { name: 'Retry now' }).click();
      await log.locator('tr.delivery').first().getByText('failed', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.getByRole('status').filter({ hasText: 'Endpoint enabled' }).waitFor();
      await page.getByRole('group', { name: 'Filter deliveries' }).getByLabel('Status').selectOption('failed');
      const rowsAre = (count: number) =>
        page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('tr.delivery').length === n, count, { timeout: UI_TIMEOUT });
      await rowsAre(1);
      await log.locator('tr.delivery').getByText('failed', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Recover' }).click();
      await page.getByRole('status').filter({ hasText: 'Recovering 1 failed delivery' }).waitFor({ timeout: UI_TIMEOUT });
      await receiver.waitFor(hook, 5);
      await page.getByRole('group', { name: 'Filter deliveries' }).getByLabel('Status').selectOption('delivered');
      await rowsAre(3);

      // Filters and search: by event type, and by the message id the receiver saw.
      await page.getByRole('group', { name: 'Filter deliveries' }).getByLabel('Status').selectOption('');
      await page.getByRole('group', { name: 'Filter deliveries' }).getByLabel('Event type').selectOption('agent_run.succeeded');
      await page.getByText('No deliveries match these filters.').waitFor({ timeout: UI_TIMEOUT });
      await page.getByRole('group', { name: 'Filter deliveries' }).getByLabel('Event type').selectOption('webhook_endpoint.test');
      const messageId = String(received!.headers['webhook-id']);
      await page.getByLabel('Event or message id').fill(messageId);
      await rowsAre(1);
      await log.locator('tr.delivery').getByRole('button', { name: /^Show/ }).click();
      await log.getByText(messageId).first().waitFor();
      await page.getByLabel('Event or message id').fill('not-an-id');
      await page.getByText('An event id is a UUID').waitFor();
      await assertPage('webhook-endpoint');

      // Editing the endpoint: its description and its events.
      await page.getByRole('button', { name: 'Edit endpoint' }).click();
      await page.getByLabel('Description').fill('console receiver, runs only');
      await page.getByRole('checkbox', { name: 'agent_run.succeeded' }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Endpoint saved.' }).waitFor({ timeout: UI_TIMEOUT });
      await page.getByText('console receiver, runs only').waitFor();
      const endpointId = new URL(page.url()).pathname.split('/').pop()!;
      const saved = await http.get(`/api/v1/webhook-endpoints/${endpointId}`, { token: tenant.key });
      assert.equal(saved.body.description, 'console receiver, runs only');
      assert.deepEqual(saved.body.events, ['agent_run.succeeded']);
    });

    it('Overview: what happened, from the usage summary: runs, documents, videos, deliveries and tokens', async () => {
      await openSection('Overview');
      const activity = page.getByRole('region', { name: 'Activity' });
      const figure = (name: string) => activity.getByRole('article', { name });
      // The summary of the first visit is shown at once, then the fresh one.
      await figure('Webhook deliveries').filter({ hasText: '3 delivered' }).waitFor({ timeout: UI_TIMEOUT });
      assert.match(await figure('Agent runs').innerText(), /^Agent runs\s+2\s+2 succeeded, 0 failed, 0 cancelled, 0 in progress\s+Success rate 100%/);
      // Two files, two texts (one replaced); the base deleted with its document took that one away.
      assert.match(await figure('Documents').innerText(), /\s4\s+4 ready/);
      assert.match(await figure('Videos').innerText(), /\s3\s+2 completed, 1 failed/);
      assert.match(await figure('Webhook deliveries').innerText(), /\s3\s+3 delivered, 0 failed, 0 pending/);
      assert.match(await figure('Tokens').innerText(), /1,000,000\s+used: 1,500,000 charged, 500,000 refunded; 2,500,000 granted/);
      await activity.getByLabel('Last 30 days').check();
      assert.match(await figure('Agent runs').innerText(), /^Agent runs\s+2\s/);
      await page.getByRole('region', { name: 'Recent failures', exact: true }).waitFor();
      await assertPage('overview');
    });

    // After the overview, whose figures count the runs so far: each turn of a conversation is a run too.
    it('Playground: a new conversation with a version that has a function tool, its call answered in the page, a second turn that remembers the first, and a call denied with a reason', async () => {
      // Two more versions of the test agent, made before the page lists them: one with a function tool, one
      // whose knowledge_search needs approval.
      const created = await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
        token: tenant.key,
        body: { model: 'local/extractive', instructions: 'Answer briefly.', tools: [LOOKUP_ORDER] },
      });
      assert.equal(created.status, 201, created.text);
      const approving = await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
        token: tenant.key,
        body: { model: 'local/extractive', instructions: 'Answer briefly.', tools: [{ type: 'knowledge_search', require_approval: 'always' }] },
      });
      assert.equal(approving.status, 201, approving.text);
      await openSection('Playground');
      await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Test agent' });
      await page
        .getByLabel('Version', { exact: true })
        .selectOption({ label: `v${created.body.version} · local/extractive · tools: lookup_order (function)` });
      assert.equal(await page.getByLabel('Conversation', { exact: true }).inputValue(), '', 'a new conversation');
      await assertPage('playground-new', { screenshot: false });

      // The first turn calls the tool and waits: one box per call, prefilled with {}.
      await page.getByLabel('Message', { exact: true }).fill('lookup_order for order 42');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const pending = page.getByRole('region', { name: 'The agent waits for tool outputs' });
      const output = pending.getByLabel('Output of lookup_order');
      await output.waitFor({ timeout: UI_TIMEOUT });
      assert.equal(await output.inputValue(), '{}');
      assert.deepEqual(JSON.parse(await pending.locator('pre').first().innerText()), { order_id: '42' });
      const conversationId = /\/console\/playground\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
      assert.ok(conversationId, `the address names the conversation: ${page.url()}`);
      const turn = page.getByRole('list', { name: 'What this turn did, in order' });
      await turn.getByText('Waits for the output of lookup_order').waitFor({ timeout: UI_TIMEOUT });
      assert.match(await turn.innerText(), /Called lookup_order/);
      const chat = page.getByRole('log', { name: 'Messages, oldest first' });
      await chat.locator('li.chat-tool_call').filter({ hasText: 'Called lookup_order' }).waitFor({ timeout: UI_TIMEOUT });
      assert.ok(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled(), 'no next message while the turn waits');
      await assertPage('playground-waiting');

      await output.fill('{"status":"shipped"}');
      await pending.getByRole('button', { name: 'Send output' }).click();
      await chat.locator('li.chat-answer').filter({ hasText: 'lookup_order returned: {"status":"shipped"}' }).waitFor({ timeout: UI_TIMEOUT });
      await pending.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      await turn.getByText('Succeeded', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      assert.match(await turn.innerText(), /lookup_order returned/);
      await chat.locator('li.chat-tool_output').filter({ hasText: '"status": "shipped"' }).waitFor({ timeout: UI_TIMEOUT });

      // The second turn, in the same conversation, sees the first.
      await page.getByLabel('Message', { exact: true }).fill('What is the status of order 42?');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await chat.locator('li.chat-answer').nth(1).filter({ hasText: 'From this conversation' }).waitFor({ timeout: UI_TIMEOUT });
      assert.match(await chat.locator('li.chat-answer').nth(1).innerText(), /shipped/);
      assert.equal(await chat.locator('li.chat-input').count(), 2);
      assert.equal(new URL(page.url()).pathname, `/console/playground/${conversationId}`, 'still the same conversation');
      const items = await http.get(`/api/v1/conversations/${conversationId}/items?limit=100`, { token: tenant.key });
      assert.equal(items.status, 200, items.text);
      assert.deepEqual(
        items.body.data.map((item: { type: string }) => item.type),
        ['input', 'tool_call', 'tool_output', 'answer', 'input', 'answer'],
      );
      assert.equal(await page.getByLabel('Conversation', { exact: true }).inputValue(), conversationId, 'the picker shows it');
      await turn.getByText('Saw 4 earlier items of the conversation').waitFor({ timeout: UI_TIMEOUT });
      await assertPage('playground');

      // A third turn, of the version whose knowledge_search needs approval: denied, with a reason the model hears.
      await page
        .getByLabel('Version', { exact: true })
        .selectOption({ label: `v${approving.body.version} · local/extractive · tools: knowledge_search (6, needs approval)` });
      await page.getByLabel('Message', { exact: true }).fill('What happens to a cancelled run?');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const approval = page.getByRole('region', { name: 'The agent asks for approval' });
      await approval.waitFor({ timeout: UI_TIMEOUT });
      const decide = approval.getByRole('button', { name: 'Send decision' });
      assert.ok(await decide.isDisabled(), 'not before the call is approved or denied');
      await approval.getByLabel('Reason for knowledge_search').fill('not during the audit');
      const deny = approval.getByRole('button', { name: 'Deny knowledge_search' });
      await deny.click();
      assert.equal(await deny.getAttribute('aria-pressed'), 'true');
      await assertPage('playground-approval');
      await decide.click();
      await chat
        .locator('li.chat-answer')
        .nth(2)
        .filter({ hasText: 'The knowledge search did not run: the call was not approved: not during the audit' })
        .waitFor({ timeout: UI_TIMEOUT });
      await turn.getByText('Denied knowledge_search').waitFor({ timeout: UI_TIMEOUT });
    });

    // After the overview and the playground, whose figures count the tokens so far: from here local/extractive is priced for this organisation.
    it('Structured answers and costs: a version with a response format (a bad schema said inline), its run’s parsed answer, tokens and cost per turn, and the charge in Usage & billing linked to the run', async () => {
      const priced = await http.request('PUT', `/admin/v1/orgs/${tenant.orgId}/model-prices`, {
        token: testInfra().adminToken,
        body: { prices: [{ model: 'local/extractive', input_per_1k_tokens: 1000, output_per_1k_tokens: 1000 }] },
      });
      assert.equal(priced.status, 200, priced.text);

      await openSection('Agents');
      await page.getByRole('link', { name: 'Test agent', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Agent “Test agent”' }).waitFor({ timeout: UI_TIMEOUT });
      await page.getByLabel('Instructions').fill('Summarise the ticket.');
      await page.getByLabel('May search the organisation’s knowledge').uncheck();
      await page.getByLabel(/Answers JSON that matches a schema/).check();
      await page.getByLabel('Name', { exact: true }).fill('ticket');
      const schema = page.getByLabel('JSON Schema of the answer');
      await schema.fill('{"type": "object", "properties": {');
      await page.getByText(/^Not valid JSON: /).waitFor({ timeout: UI_TIMEOUT });
      assert.equal(await schema.getAttribute('aria-invalid'), 'true');
      assert.ok(await page.getByRole('button', { name: 'Create version' }).isDisabled(), 'no create with a schema that does not parse');
      await schema.fill(
        JSON.stringify({
          type: 'object',
          properties: { summary: { type: 'string' }, priority: { enum: ['low', 'high'] }, customer_id: { type: 'integer' } },
          required: ['summary', 'priority', 'customer_id'],
        }),
      );
      assert.equal(await page.getByText(/^Not valid JSON/).count(), 0, 'the error goes once the schema parses');
      await page.getByRole('button', { name: 'Create version' }).click();
      const done = page.getByRole('status').filter({ hasText: /Version \d+ created with local\/extractive/ });
      await done.waitFor({ timeout: UI_TIMEOUT });
      const versionNumber = Number(/Version (\d+) created/.exec(await done.innerText())?.[1]);
      const row = page.getByRole('row').filter({ hasText: `v${versionNumber}` });
      await row.getByText('JSON “ticket”, strict').click();
      assert.match(await row.locator('pre').innerText(), /"customer_id": \{\s+"type": "integer"/);
      await assertPage('agent-response-format');

      const versions = await http.get(`/api/v1/agents/${tenant.agentId}/versions?limit=100`, { token: tenant.key });
      const version = versions.body.data.find((one: { version: number }) => one.version === versionNumber);
      assert.deepEqual(version.response_format.name, 'ticket');
      const created = await http.post('/api/v1/agent-runs', {
        token: tenant.key,
        body: { org_id: tenant.orgId, agent_version_id: version.agent_version_id, input: 'Customer 4711 cannot log in. priority: high' },
      });
      assert.equal(created.status, 200, created.text);
      const runId = created.body.run_id as string;
      await page.goto(url(`/runs/${runId}`));
      await page.getByRole('list', { name: 'What the run did, in order' }).getByText('Succeeded', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
      const parsed = page.getByTestId('run-output-parsed');
      await parsed.waitFor({ timeout: UI_TIMEOUT });
      const shown = await parsed.innerText();
      assert.match(shown, /^\{\n  "summary": /, 'pretty-printed');
      assert.deepEqual([JSON.parse(shown).priority, JSON.parse(shown).customer_id], ['high', 4711]);
      const usage = (await http.get(`/api/v1/agent-runs/${runId}/usage`, { token: tenant.key })).body;
      assert.ok(usage.total.cost_tokens > 0, JSON.stringify(usage));
      const turns = page.getByRole('region', { name: 'Model turns of this run' });
      await page
        .getByTestId('run-cost-total')
        .filter({ hasText: usage.total.cost_tokens.toLocaleString('en-US') })
        .waitFor({ timeout: UI_TIMEOUT });
      const [, first, total] = await turns.getByRole('row').allInnerTexts();
      const turn = usage.turns[0];
      assert.match(
        first!,
        new RegExp(
          `^1\\s+local/extractive\\s+${turn.input_tokens.toLocaleString('en-US')}\\s+${turn.output_tokens.toLocaleString('en-US')}\\s+tokenizer \\(o200k_base\\)\\s+${turn.cost_tokens.toLocaleString('en-US')}\\s+yes$`,
        ),
      );
      assert.match(total!, /^Total \(1 turn\)/);
      await assertPage('run-costs');

      await openSection('Usage & billing');
      const charges = page.getByRole('table', { name: 'Model turns of agent runs, per period' });
      const day = charges.getByRole('row').filter({ hasText: 'Last 24 hours' });
      await day.filter({ hasText: `${usage.total.cost_tokens.toLocaleString('en-US')} tokens` }).waitFor({ timeout: UI_TIMEOUT });
      const charge = page
        .getByRole('table', { name: 'Ledger entries, newest first' })
        .getByRole('row')
        .filter({ hasText: `run ${runId.slice(0, 8)}` });
      await charge.waitFor({ timeout: UI_TIMEOUT });
      assert.match(await charge.innerText(), new RegExp(`Charge[\\s\\S]*−${usage.total.cost_tokens.toLocaleString('en-US')}`));
      await assertPage('billing-runs');
      await charge.getByRole('link', { name: `run ${runId.slice(0, 8)}` }).click();
      await page.getByRole('heading', { level: 1, name: `Run ${runId.slice(0, 8)}` }).waitFor({ timeout: UI_TIMEOUT });
    });

    // After the overview too: a schedule's firings are runs.
    it('Schedules: a bad time zone refused in words; a paused schedule run now, resumed (next runs, its runs appear) and paused; another deleted', async () => {
      await openSection('Schedules');
      await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Test agent' });
      // The tenant's first version (later ones wait for tool outputs or approvals).
      await page.getByLabel('Version', { exact: true }).selectOption({ label: 'v1 · local/extractive · tools: knowledge_search (6)' });
      await page.getByLabel('Input').fill('What does a schedule do?');
      await page.getByRole('radio', { name: 'Cron expression' }).check();
      await page.getByLabel('Cron (minute hour day-of-month month day-of-week)').fill('0 9 * * MON-FRI');
      await page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
      await page.getByRole('button', { name: 'Create schedule' }).click();
      await page.getByRole('alert').filter({ hasText: 'timezone "Mars/Olympus_Mons" is not an IANA time zone' }).waitFor({ timeout: UI_TIMEOUT });

      await page.getByRole('radio', { name: 'Every N seconds' }).check();
      await page.getByLabel('Every (seconds, at least 1)').fill('2');
      await page.getByRole('checkbox', { name: 'Create it paused' }).check();
      await page.getByRole('button', { name: 'Create schedule' }).click();
      await page.getByRole('heading', { level: 1, name: 'Schedule', exact: true }).waitFor({ timeout: UI_TIMEOUT });
      const scheduleId = /\/console\/schedules\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
      assert.ok(scheduleId, page.url());
      const name = `schedule ${scheduleId.slice(0, 8)}`;
      await page.getByText('None while paused.').waitFor({ timeout: UI_TIMEOUT });
      await page.getByText('No runs yet.').waitFor({ timeout: UI_TIMEOUT });

      await page.getByRole('button', { name: `Run now: ${name}` }).click();
      await page.getByRole('status').filter({ hasText: 'Fired' }).waitFor({ timeout: UI_TIMEOUT });
      const runsTable = page.getByRole('table', { name: 'The schedule’s runs, newest first' });
      await runsTable.getByRole('link').first().waitFor({ timeout: UI_TIMEOUT });
      await runsTable.getByText('succeeded').first().waitFor({ timeout: UI_TIMEOUT });
      await assertPage('schedule');

      await page.getByRole('button', { name: `Resume ${name}` }).click();
      const nextRuns = page.getByRole('region', { name: 'Next runs' }).getByRole('listitem');
      await nextRuns.nth(1).waitFor({ timeout: UI_TIMEOUT });
      const deadline = Date.now() + UI_TIMEOUT;
      while ((await runsTable.getByRole('link').count()) < 3) {
        assert.ok(Date.now() < deadline, 'the resumed schedule fired');
        await page.waitForTimeout(250);
      }
      await page.getByRole('button', { name: `Pause ${name}` }).click();
      await page.getByRole('button', { name: `Resume ${name}` }).waitFor({ timeout: UI_TIMEOUT });
      const paused = await http.get(`/api/v1/agent-schedules/${scheduleId}`, { token: tenant.key });
      assert.equal(paused.body.paused, true);

      await openSection('Schedules');
      const row = page.getByRole('row').filter({ hasText: scheduleId.slice(0, 8) });
      await row.getByText('every 2 s').waitFor({ timeout: UI_TIMEOUT });
      await row.getByText('paused', { exact: true }).waitFor();
      await assertPage('schedules');

      // Deleting another one (the one above stays, paused, for the 320 px sweep of its page).
      const other = await http.post('/api/v1/agent-schedules', {
        token: tenant.key,
        body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'To be deleted', every_seconds: 3600, paused: true },
      });
      assert.equal(other.status, 201, other.text);
      const otherName = `schedule ${other.body.schedule_id.slice(0, 8)}`;
      await page.reload();
      const otherRow = page.getByRole('row').filter({ hasText: 'To be deleted' });
      await otherRow.getByRole('button', { name: `Delete ${otherName}` }).click();
      await otherRow.getByRole('button', { name: 'Yes, delete' }).click();
      await otherRow.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      assert.equal((await http.get(`/api/v1/agent-schedules/${other.body.schedule_id}`, { token: tenant.key })).status, 404);
      await row.waitFor();
    });

    it('a page that does not exist says so in its heading and its title; a list that fits on one page shows no pager', async () => {
      await page.goto(url('/no-such-page'));
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({ timeout: UI_TIMEOUT });
      assert.equal(await page.title(), 'Page not found · Pylon console');
      await assertPage('not-found', { screenshot: false });
      await openSection('API keys');
      await page.getByRole('row').filter({ hasText: 'console test reader' }).waitFor();
      assert.equal(await page.getByRole('navigation', { name: 'Pages of keys' }).count(), 0, 'no Previous/Next under a one-page list');
    });

    if (viewport.name === 'phone') {
      it('no page is wider than a 320 px screen', async () => {
        await page.setViewportSize({ width: 320, height: 640 });
        for (const [name, path] of visited) {
          if (name === 'sign-in' || name === 'menu-open') continue;
          await page.goto(url(path));
          await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: UI_TIMEOUT });
          await page.waitForLoadState('networkidle');
          await assertFitsViewport(`${name} (${path}) at 320 px`);
        }
      });
    }
  }
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
