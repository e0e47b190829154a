import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

/** The repository root, seen from dist-test/test/. */
const ROOT = join(__dirname, '..', '..');
/** `npm run build`'s output: what the image ships (its runtime stage copies dist/ whole). */
const RUNTIME = join(ROOT, 'dist');
/** The tree these tests run from: `npm run build:test` compiles it from the same sources, tests included. */
const TEST_TREE = join(__dirname, '..');
/** The compiled server code; dist/ also holds the console (Vite's output) and the workflow bundle. */
const CODE_DIRS = ['apps', 'libs', 'workflows'];
/** What runs the whole stack on one machine (`npm start`, `npm run start:cluster`): in dist/, not in the image. */
const ONE_MACHINE_LAUNCHERS = ['apps/embedded', 'apps/cluster'];

/** Every file under `dir`, as a path relative to it with `/` separators. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

const TEST_FILE = /\.test\.js(\.map)?$/;
/** Names of test doubles and test data (test/support/ holds them). */
const TEST_ONLY_NAME = /fake|fixture|mock|stub/i;

/** What the image's node_modules holds: the build stage prunes the devDependencies (`npm prune --omit=dev`). */
function productionPackages(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  return new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})]);
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The module specifiers a compiled (CommonJS) file requires or resolves by a literal. */
function requiredSpecifiers(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/\brequire(?:\.resolve)?\(\s*(["'])([^"']+)\1\s*\)/g)].map((match) => match[2]!);
}

/** Node's resolution of a relative specifier to a file, or undefined. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const target = resolve(dirname(from), specifier);
  return [target, `${target}.js`, `${target}.json`, join(target, 'index.js')].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
}

describe('the runtime build (dist/, what the image ships)', () => {
  assert.ok(existsSync(RUNTIME), `${RUNTIME} is missing: \`npm test\` runs \`npm run build\` first`);
  const shipped = listFiles(RUNTIME);
  const code = shipped.filter((file) => CODE_DIRS.includes(file.split('/')[0]!));

  it('has the entry points the image and `npm start` run', () => {
    for (const entry of [
      'apps/api/main.js',
      'apps/worker/main.js',
      'apps/embedded/main.js',
      'apps/cli/main.js',
      'libs/db/migrate.js',
      'workflows.bundle.js',
      'console/index.html',
    ]) {
      assert.ok(shipped.includes(entry), `dist/${entry} is missing`);
    }
  });

  it('holds no test/, no bench/ and no *.test.js', () => {
    const topLevel = readdirSync(RUNTIME);
    assert.ok(!topLevel.includes('test'), 'dist/test/ exists');
    assert.ok(!topLevel.includes('bench'), 'dist/bench/ exists');
    assert.deepEqual(
      shipped.filter((file) => TEST_FILE.test(file) || /(^|\/)(test|bench|__tests__)\//.test(file)),
      [],
    );
  });

  it('holds no fakes and no fixtures', () => {
    assert.deepEqual(
      code.filter((file) => TEST_ONLY_NAME.test(file)),
      [],
    );
  });

  it('requires nothing outside itself, and of packages only Node’s own and the production dependencies', () => {
    const production = productionPackages();
    const problems: string[] = [];
    for (const file of code.filter((name) => name.endsWith('.js'))) {
      const path = join(RUNTIME, file);
      for (const specifier of requiredSpecifiers(path)) {
        if (!specifier.startsWith('.')) {
          const builtin = specifier.startsWith('node:') || builtinModules.includes(specifier);
          if (!builtin && !production.has(packageName(specifier))) problems.push(`${file} requires ${specifier}, not a production dependency`);
          continue;
        }
        const target = resolveRelative(path, specifier);
        if (!target) problems.push(`${file} requires ${specifier}, which is not in dist/`);
        else if (relative(RUNTIME, target).startsWith('..')) problems.push(`${file} requires ${specifier}, outside dist/`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('is the test tree without its tests: the same application files, nothing dropped, nothing stale', () => {
    const tested = listFiles(TEST_TREE).filter((file) => CODE_DIRS.includes(file.split('/')[0]!) && !TEST_FILE.test(file));
    assert.deepEqual(code, tested);
  });
});

describe('the image', () => {
  it('takes only dist/, the production node_modules and the manifests from the build stage', () => {
    const dockerfile = readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8');
    const copied = [...dockerfile.matchAll(/^COPY\s+--from=build\s+(.+)$/gm)].flatMap((match) => match[1]!.trim().split(/\s+/).slice(0, -1));
    assert.deepEqual(copied.sort(), ['/app/dist', '/app/node_modules', '/app/package-lock.json', '/app/package.json']);
    assert.match(dockerfile, /^RUN npm run build\b/m);
  });

  it('runs as an unprivileged user', () => {
    const dockerfile = readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8');
    const users = [...dockerfile.matchAll(/^USER\s+(\S+)/gm)].map((match) => match[1]!);
    assert.ok(users.length > 0, 'the Dockerfile sets no USER: the image would run as root');
    assert.ok(!/^(root|0)(:|$)/.test(users.at(-1)!), `the image runs as ${users.at(-1)}`);
  });

  it('drops the one-machine launchers, which nothing else requires', () => {
    const dockerfile = readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8');
    assert.match(dockerfile, new RegExp(`^ && rm -rf ${ONE_MACHINE_LAUNCHERS.map((dir) => `dist/${dir}`).join(' ')} \\\\$`, 'm'));
    const launcher = (file: string) => ONE_MACHINE_LAUNCHERS.some((dir) => file.startsWith(`${dir}/`));
    const requirers = listFiles(RUNTIME)
      .filter((file) => file.endsWith('.js') && CODE_DIRS.includes(file.split('/')[0]!) && !launcher(file))
      .filter((file) =>
        requiredSpecifiers(join(RUNTIME, file)).some((specifier) => {
          const target = specifier.startsWith('.') ? resolveRelative(join(RUNTIME, file), specifier) : undefined;
          return target !== undefined && launcher(relative(RUNTIME, target).split(sep).join('/'));
        }),
      );
    assert.deepEqual(requirers, []);
  });

  it('is built from a context without tests, benchmarks or the host’s builds', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    for (const pattern of ['dist', 'dist-test', 'test', 'bench', '**/*.test.ts', 'node_modules']) {
      assert.ok(ignored.includes(pattern), `.dockerignore lacks ${pattern}`);
    }
  });
});
