/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Every relative link in the docs resolves: README.md, CONTRIBUTING.md, CHANGELOG.md,
 * sandbox/README.md and docs/**.md. A link to a file must name an existing file or folder (so
 * must an image, `![…](docs/images/x.png)` or `<img src="…">`: a picture the docs show that
 * `npm run docs:screenshots` no longer makes fails here); a
 * `#anchor` into a Markdown file must name one of its headings (GitHub's slugs: lower case,
 * punctuation dropped, spaces to hyphens, repeats numbered). External links are not fetched.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

function docFiles(): string[] {
	const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && e.name.endsWith('.md'))
		.map((e) => join(e.parentPath, e.name));
	return [
		...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'sandbox/README.md'].map((f) =>
			join(ROOT, f),
		),
		...docs,
	].filter((f) => existsSync(f));
}

/** The text without fenced code blocks (their contents are not links). */
const withoutCode = (text: string) =>
	text.replace(/^(```|~~~)[\s\S]*?^\1/gm, (block) => block.replace(/[^\n]/g, ' '));

/** GitHub's anchor for a heading. */
export function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/<[^>]+>/g, '')
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
	const seen = new Map<string, number>();
	const out = new Set<string>();
	for (const line of withoutCode(readFileSync(file, 'utf8')).split('\n')) {
		const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!m) continue;
		const text = m[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
		const base = slug(text);
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		out.add(n === 0 ? base : `${base}-${n}`);
	}
	return out;
}

interface Broken {
	where: string;
	link: string;
	why: string;
}

/** The links of `text` (the contents of `file`) that do not resolve. */
function brokenLinks(file: string, text = readFileSync(file, 'utf8')): Broken[] {
	const broken: Broken[] = [];
	const lines = withoutCode(text).split('\n');
	lines.forEach((line, i) => {
		for (const m of line.matchAll(
			/\]\(([^)\s]+)(?:\s+"[^"]*")?\)|^\[[^\]]+\]:\s*(\S+)|<img\b[^>]*?\ssrc=["']([^"']+)["']/gi,
		)) {
			const link = m[1] ?? m[2] ?? m[3];
			if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) continue; // external, mailto:
			const [pathPart, anchor] = link.split('#', 2) as [string, string | undefined];
			const target = pathPart ? resolve(dirname(file), decodeURIComponent(pathPart)) : file;
			const where = `${relative(ROOT, file)}:${i + 1}`;
			if (!existsSync(target)) {
				broken.push({ where, link, why: 'no such file' });
				continue;
			}
			if (
				anchor !== undefined &&
				target.endsWith('.md') &&
				!anchors(target).has(anchor.toLowerCase())
			)
				broken.push({ where, link, why: `no heading "#${anchor}" in ${relative(ROOT, target)}` });
		}
	});
	return broken;
}

test("the slug of a heading is GitHub's", () => {
	expect(slug('Faults and bad input')).toBe('faults-and-bad-input');
	expect(slug('Running at scale (n8n queue mode)')).toBe('running-at-scale-n8n-queue-mode');
	expect(slug('What `npm test` does on a fresh machine'.replace(/`/g, ''))).toBe(
		'what-npm-test-does-on-a-fresh-machine',
	);
});

test('finds a broken link and a broken anchor, not a good one or an external one', () => {
	const text = [
		'[a](docs/nowhere.md)',
		'see [b](CONTRIBUTING.md#no-such-heading)',
		'[c](https://example.com/x)',
		'[d](CONTRIBUTING.md#saved-workflows-are-sacred)',
		'```',
		'[e](inside/code.md)',
		'```',
	].join('\n');
	expect(brokenLinks(join(ROOT, 'README.md'), text).map((b) => `${b.where} ${b.link}`)).toEqual([
		'README.md:1 docs/nowhere.md',
		'README.md:2 CONTRIBUTING.md#no-such-heading',
	]);
});

test('finds a missing image, in Markdown and in an <img> tag, not one that exists', () => {
	const text = [
		'![The nodes panel](docs/images/no-such-picture.png)',
		'<img src="docs/images/also-missing.png" width="640" alt="x">',
		'<p><img alt="y" src=\'docs/images/third-missing.png\'></p>',
		'![c](package.json) <img src="package.json">',
	].join('\n');
	expect(brokenLinks(join(ROOT, 'README.md'), text).map((b) => `${b.where} ${b.link}`)).toEqual([
		'README.md:1 docs/images/no-such-picture.png',
		'README.md:2 docs/images/also-missing.png',
		'README.md:3 docs/images/third-missing.png',
	]);
});

test.each(docFiles().map((f) => [relative(ROOT, f), f]))(
	'every relative link in %s resolves',
	(_, file) => {
		const broken = brokenLinks(file);
		expect(broken.map((b) => `${b.where}: ${b.link} (${b.why})`)).toEqual([]);
	},
);

/** The npm scripts the docs tell a reader to run (`npm run X`, also in code blocks) that package.json does not have. */
function unknownScripts(text: string, scripts: Set<string>): string[] {
	const names = [...text.matchAll(/\bnpm run(?: --silent)? ([a-z][\w:.-]*)/g)].map((m) =>
		m[1].replace(/[:.]+$/, ''),
	);
	return [...new Set(names)].filter((n) => !scripts.has(n));
}

/**
 * Paths of the repository the docs name in backticks (no placeholder, no glob) that do not exist.
 * Folders a run creates (a dot folder, such as test/editor/.screenshots/) are not looked for.
 */
function missingPaths(text: string): string[] {
	const paths = [
		...text.matchAll(
			/`((?:nodes|credentials|test|testbed|scripts|bench|sandbox|docs|demo|contract|\.ci)\/[\w./-]+)`/g,
		),
	]
		.map((m) => m[1].replace(/[.,:;]+$/, ''))
		.filter((p) => !/\/\./.test(p));
	return [...new Set(paths)].filter((p) => !existsSync(join(ROOT, p)));
}

test('the checks of named scripts and paths find an unknown script and a missing path', () => {
	const text =
		'run `npm run test:fast` or npm run no-such-script; see `test/unit/none.test.ts` and `test/unit/doc-links.test.ts`';
	expect(unknownScripts(text, new Set(['test:fast']))).toEqual(['no-such-script']);
	expect(missingPaths(text)).toEqual(['test/unit/none.test.ts']);
});

// docs/dev/ keeps notes of prototypes built elsewhere: their paths are not this repository's.
test.each(
	docFiles()
		.filter((f) => !relative(ROOT, f).startsWith('docs/dev/'))
		.map((f) => [relative(ROOT, f), f]),
)('every `npm run` script and every repository path %s names exists', (_, file) => {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	};
	const text = readFileSync(file, 'utf8');
	expect(unknownScripts(text, new Set(Object.keys(pkg.scripts)))).toEqual([]);
	expect(missingPaths(text)).toEqual([]);
});
