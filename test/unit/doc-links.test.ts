/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Every relative link in the docs resolves: README.md, CONTRIBUTING.md, CHANGELOG.md,
 * sandbox/README.md and docs/**.md. A link to a file must name an existing file or folder (so
 * must an image, `![…](docs/images/x.png)` or `<img src="…">`: a picture the docs show that
 * `npm run docs:screenshots` no longer makes fails here); a
 * `#anchor` into a Markdown file must name one of its headings (GitHub's slugs: lower case,
 * punctuation dropped, spaces to hyphens, repeats numbered). External links are not fetched.
 *
 * So does every link n8n's editor shows for the pack (a node's and the credential's **Docs**
 * link): the URLs into this repository on GitHub in the nodes' codex files
 * (`nodes/*\/*.node.json`) and the credential's `documentationUrl`, read as the relative link
 * they stand for (`<repository>#x` is README.md#x, `<repository>/blob/main/docs/y.md#z` is
 * docs/y.md#z).
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

/** Why a relative `link` written in `file` does not resolve, or undefined when it does. */
function linkProblem(file: string, link: string): string | undefined {
	const [pathPart, anchor] = link.split('#', 2) as [string, string | undefined];
	const target = pathPart ? resolve(dirname(file), decodeURIComponent(pathPart)) : file;
	if (!existsSync(target)) return 'no such file';
	if (anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor.toLowerCase()))
		return `no heading "#${anchor}" in ${relative(ROOT, target)}`;
	return undefined;
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
			const why = linkProblem(file, link);
			if (why) broken.push({ where: `${relative(ROOT, file)}:${i + 1}`, link, why });
		}
	});
	return broken;
}

/** The repository's address on GitHub (package.json's homepage without its fragment). */
const REPOSITORY = (
	JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { homepage: string }
).homepage.replace(/#.*$/, '');

/** The relative link (from the repository's root) that a URL into the repository on GitHub stands for; undefined for any other site. */
export function repositoryLink(url: string): string | undefined {
	if (!url.startsWith(REPOSITORY)) return undefined;
	const rest = url.slice(REPOSITORY.length);
	if (rest !== '' && !/^[/#]/.test(rest)) return undefined; // another repository whose name starts alike
	if (rest === '' || rest.startsWith('#')) return `README.md${rest}`;
	const file = /^\/(?:blob|tree)\/main\/([^?]+)$/.exec(rest);
	// Any other page of the repository (issues, releases, another branch) is not checked here: flag it.
	return file ? file[1] : `(a page of the repository that is not a file on main: ${rest})`;
}

/** Every `url` value in a codex file (`*.node.json`), wherever it is nested. */
function codexUrls(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap(codexUrls);
	if (!value || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([k, v]) =>
		k === 'url' && typeof v === 'string' ? [v] : codexUrls(v),
	);
}

/** The Docs links n8n's editor shows for the pack: every codex file's URLs and the credentials' documentationUrl. */
function editorDocLinks(): Array<{ where: string; url: string }> {
	const codex = readdirSync(join(ROOT, 'nodes'), { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && e.name.endsWith('.node.json'))
		.map((e) => join(e.parentPath, e.name));
	const credentials = readdirSync(join(ROOT, 'credentials'))
		.filter((f) => f.endsWith('.credentials.ts'))
		.map((f) => join(ROOT, 'credentials', f));
	return [
		...codex.flatMap((f) =>
			codexUrls(JSON.parse(readFileSync(f, 'utf8'))).map((url) => ({
				where: relative(ROOT, f),
				url,
			})),
		),
		...credentials.flatMap((f) =>
			[...readFileSync(f, 'utf8').matchAll(/documentationUrl\s*=\s*['"]([^'"]+)['"]/g)].map(
				(m) => ({ where: relative(ROOT, f), url: m[1] }),
			),
		),
	];
}

/** The Docs links of `links` that point into this repository and do not resolve. */
function brokenDocLinks(links: Array<{ where: string; url: string }>): string[] {
	return links.flatMap(({ where, url }) => {
		const link = repositoryLink(url);
		if (link === undefined) return [];
		const why = link.startsWith('(') ? link : linkProblem(join(ROOT, 'README.md'), link);
		return why ? [`${where}: ${url} (${why})`] : [];
	});
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

test("a node's Docs link in n8n's editor is checked as the link it stands for: a missing file or heading is found", () => {
	const codex = {
		node: 'n8n-nodes-business-platform.businessPlatformSales',
		resources: {
			credentialDocumentation: [{ url: `${REPOSITORY}#credentials` }],
			primaryDocumentation: [
				{ url: `${REPOSITORY}#sales-node` },
				{ url: `${REPOSITORY}/blob/main/docs/operations.md#sales-node` },
				{ url: `${REPOSITORY}/blob/main/docs/no-such-file.md` },
				{ url: `${REPOSITORY}/issues/1` },
				{ url: 'https://docs.n8n.io/integrations/community-nodes/' },
			],
		},
	};
	const links = codexUrls(codex).map((url) => ({ where: 'Synthetic.node.json', url }));
	expect(brokenDocLinks(links)).toEqual([
		`Synthetic.node.json: ${REPOSITORY}#sales-node (no heading "#sales-node" in README.md)`,
		`Synthetic.node.json: ${REPOSITORY}/blob/main/docs/no-such-file.md (no such file)`,
		`Synthetic.node.json: ${REPOSITORY}/issues/1 ((a page of the repository that is not a file on main: /issues/1))`,
	]);
	expect(repositoryLink(`${REPOSITORY}-fork#x`)).toBeUndefined();
});

test("every Docs link n8n's editor shows for the pack (codex files, the credential) resolves", () => {
	const links = editorDocLinks();
	// Every node (its codex file) and the credential have one at least.
	expect(links.length).toBeGreaterThanOrEqual(9);
	expect(brokenDocLinks(links)).toEqual([]);
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
