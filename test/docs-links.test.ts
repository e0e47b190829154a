import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

/** The repository root, seen from dist-test/test/. */
const ROOT = join(__dirname, '..', '..');

/** A markdown doc of the repository: its path from the root (with `/`) and its text. */
interface Doc {
  path: string;
  text: string;
}

/** The docs checked: the README, the benchmarks' README, every docs/*.md and every package's README. */
function repositoryDocs(): Doc[] {
  const paths = ['README.md', 'bench/README.md'];
  for (const entry of readdirSync(join(ROOT, 'docs')).sort()) if (entry.endsWith('.md')) paths.push(`docs/${entry}`);
  for (const entry of readdirSync(join(ROOT, 'packages')).sort()) {
    if (existsSync(join(ROOT, 'packages', entry, 'README.md'))) paths.push(`packages/${entry}/README.md`);
  }
  return paths.map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

/** The text without its fenced code blocks (their lines become empty, so line numbers stay). */
function withoutFencedCode(text: string): string {
  let fence: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === null && marker) {
        fence = marker;
        return '';
      }
      if (fence !== null) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link shows its text
    .replace(/<[^>]+>/g, '') // inline HTML shows nothing of its tags
    .replace(/[`*~]/g, '') // code and emphasis marks are not text (`_` is kept: GitHub keeps it)
    .trim()
    .toLowerCase();
  return rendered.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a markdown doc has: its headings' slugs, a repeated one suffixed -1, -2, … as GitHub does. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of withoutFencedCode(text).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** The relative link targets of a doc (`[text](target)`, `![alt](target)`), outside code, with their line. */
function linkTargets(text: string): { target: string; line: number }[] {
  const targets: { target: string; line: number }[] = [];
  withoutFencedCode(text)
    .split('\n')
    .forEach((line, index) => {
      const prose = line.replace(/`[^`]*`/g, '');
      for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = match[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …: not a file of the repository
        targets.push({ target, line: index + 1 });
      }
    });
  return targets;
}

/** The scripts a package.json declares. */
function scriptsOf(packageJson: string): Set<string> {
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts?: Record<string, string> };
  return new Set(Object.keys(manifest.scripts ?? {}));
}

/** The scripts named by `npm run <script>` (and `npm run -s`, `--silent`), in prose and in code alike. */
function npmRunScripts(text: string): { script: string; line: number }[] {
  const found: { script: string; line: number }[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\bnpm run(?:\s+(?:-s|--silent))?\s+([A-Za-z0-9:_.-]+)/g)) {
      if (!match[1]!.startsWith('-')) found.push({ script: match[1]!, line: index + 1 });
    }
  });
  return found;
}

/**
 * What is wrong with one doc: a relative link whose file does not exist, or whose `#anchor` is no heading of
 * the markdown it names (or of the doc itself), and an `npm run` script the package's package.json lacks.
 * A link that leaves the repository (a sibling checkout's spec) is not the repository's to check.
 * `root` is the repository; `packageJson` the manifest whose scripts the doc's `npm run` may name.
 */
export function problems(doc: Doc, root: string, packageJson: string): string[] {
  const found: string[] = [];
  const docFile = join(root, doc.path);
  for (const { target, line } of linkTargets(doc.text)) {
    const hash = target.indexOf('#');
    const filePart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
    const file = filePart === '' ? docFile : resolve(dirname(docFile), filePart);
    const fromRoot = relative(root, file);
    if (fromRoot.startsWith('..')) continue;
    const where = `${doc.path}:${line}: ${target}`;
    if (filePart !== '' && !existsSync(file)) {
      found.push(`${where}: no such file`);
      continue;
    }
    if (anchor === null || anchor === '') continue;
    const own = file === docFile;
    if (!file.endsWith('.md') || (!own && statSync(file).isDirectory())) continue;
    const text = own ? doc.text : readFileSync(file, 'utf8');
    if (!anchors(text).has(anchor)) found.push(`${where}: ${fromRoot.split(sep).join('/')} has no heading #${anchor}`);
  }
  const scripts = scriptsOf(packageJson);
  for (const { script, line } of npmRunScripts(doc.text)) {
    if (!scripts.has(script)) found.push(`${doc.path}:${line}: npm run ${script}: no such script in ${relative(root, packageJson)}`);
  }
  return found;
}

/** The package.json whose scripts a doc's `npm run` names: its package's own for a package README, else the root's. */
function packageJsonFor(doc: Doc): string {
  const packageDir = /^packages\/[^/]+\//.exec(doc.path)?.[0];
  return packageDir ? join(ROOT, packageDir, 'package.json') : join(ROOT, 'package.json');
}

describe('the docs: every relative link and every npm run script they name exists', () => {
  const docs = repositoryDocs();

  it('checks the README, bench/README.md, every docs/*.md and every package README', () => {
    const paths = docs.map((doc) => doc.path);
    for (const path of ['README.md', 'bench/README.md', 'docs/api.md', 'docs/configuration.md', 'docs/sdk.md']) {
      assert.ok(paths.includes(path), `${path} is checked`);
    }
  });

  for (const doc of repositoryDocs()) {
    it(`${doc.path}: its links and npm scripts exist`, () => {
      assert.deepEqual(problems(doc, ROOT, packageJsonFor(doc)), []);
    });
  }

  it('README.md stays a front page: at most 250 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
    assert.ok(lines <= 250, `README.md has ${lines} lines`);
  });

  it('docs/layout.md lists every folder under apps/, libs/, packages/ and workflows/', () => {
    const layout = readFileSync(join(ROOT, 'docs', 'layout.md'), 'utf8');
    const listed = new Set([...layout.matchAll(/^(\S+\/)\s/gm)].map((match) => match[1]!));
    const missing: string[] = [];
    for (const top of ['apps', 'libs', 'packages', 'workflows']) {
      for (const entry of readdirSync(join(ROOT, top), { withFileTypes: true })) {
        if (entry.isDirectory() && !listed.has(`${top}/${entry.name}/`)) missing.push(`${top}/${entry.name}/`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('finds a broken link, a missing anchor and an unknown script in a doc (in memory)', () => {
    const doc: Doc = {
      path: 'docs/example.md',
      text: [
        '# Example',
        '',
        '## Its own section',
        '',
        'Good: [the front page](../README.md#quick-start), [here](#its-own-section), [the API](api.md), [GitHub](https://github.com).',
        'Broken: [gone](no-such-doc.md), [no heading](../README.md#no-such-heading), [no section](#nowhere).',
        '`[not a link, code](missing.md)`',
        '',
        '```bash',
        'npm run -s typecheck && npm run no-such-script',
        '[in a code block](also-missing.md)',
        '```',
        '',
      ].join('\n'),
    };
    assert.deepEqual(problems(doc, ROOT, join(ROOT, 'package.json')), [
      'docs/example.md:6: no-such-doc.md: no such file',
      'docs/example.md:6: ../README.md#no-such-heading: README.md has no heading #no-such-heading',
      'docs/example.md:6: #nowhere: docs/example.md has no heading #nowhere',
      'docs/example.md:10: npm run no-such-script: no such script in package.json',
    ]);
  });

  it("makes GitHub's anchors", () => {
    assert.equal(githubSlug('Walkthrough: an agent run'), 'walkthrough-an-agent-run');
    assert.equal(githubSlug('The TypeScript SDK (`@pylon/sdk`)'), 'the-typescript-sdk-pylonsdk');
    assert.equal(githubSlug("The Temporal SDK's worker metrics"), 'the-temporal-sdks-worker-metrics');
    assert.equal(githubSlug('How runs wait, and how turns keep their order'), 'how-runs-wait-and-how-turns-keep-their-order');
    assert.equal(githubSlug('`agent_run` events'), 'agent_run-events');
    assert.deepEqual([...anchors('# A\n\n## Usage\n\n```\n# not a heading\n```\n\n## Usage\n')], ['a', 'usage', 'usage-1']);
  });
});
