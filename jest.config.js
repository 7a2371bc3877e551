/**
 * One jest run, in layers (projects): unit, sandbox, integration (n8n-core against the
 * sandbox), package (the `npm pack` tarball: n8n's scanner, its contents), e2e (a real n8n
 * with the tarball installed), queue (n8n in queue mode: Redis, PostgreSQL, workers) and editor
 * (n8n's editor in Chromium). `npm test` runs all but editor, which takes minutes more
 * (`npm run test:editor`; CI runs both); `--selectProjects` picks some. A project's
 * globalSetup runs only when one of its tests is selected: the package setup builds and packs
 * the pack; the e2e, queue and editor setups do that too and install the n8n runtime (the
 * editor's also Chromium, the queue's also Redis and PostgreSQL) before any of their files starts.
 * Every file runs in test/jest/environment.ts, which stops what the file started.
 */
/**
 * BP_N8N_CORE_DIR (scripts/test-internals.ts sets it): a node_modules folder of a pinned n8n
 * runtime whose n8n-core and n8n-workflow replace the devDependencies, so the n8n-core
 * harness runs against another n8n version (the pinned-behaviour tests on the oldest n8n).
 */
const coreDir = process.env.BP_N8N_CORE_DIR;
const otherCore = coreDir
	? {
			moduleNameMapper: {
				'^n8n-core$': `${coreDir}/n8n-core`,
				'^n8n-workflow$': `${coreDir}/n8n-workflow`,
			},
			// The mapped runtime stays visible to jest; the others (and dist/) do not.
			modulePathIgnorePatterns: [
				'<rootDir>/dist/',
				`<rootDir>/.n8n-runtime/(?!${require('node:path').basename(require('node:path').dirname(coreDir))}/)`,
			],
		}
	: {};

const project = (name, extra = {}) => ({
	displayName: name,
	testEnvironment: '<rootDir>/test/jest/environment.ts',
	testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
	transform: { '^.+\\.ts$': '<rootDir>/test/jest/transform.js' },
	setupFiles: ['<rootDir>/test/jest/setup-env.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/jest/contract-check.ts'],
	modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.n8n-runtime/'],
	...otherCore,
	...extra,
});

/** @type {import('jest').Config} */
module.exports = {
	// A ceiling, not a budget: on a loaded 2-core machine 1.5× slower than ours (CI, while the e2e
	// run's n8n processes boot beside this run) a test that takes 8 s here took more than 30.
	testTimeout: 120000,
	// Slow files first (test/jest/sequencer.js); `npm test` runs 2 workers (package.json).
	testSequencer: '<rootDir>/test/jest/sequencer.js',
	globalSetup: '<rootDir>/test/jest/setup.ts',
	globalTeardown: '<rootDir>/test/jest/teardown.ts',
	projects: [
		project('unit'),
		project('sandbox'),
		project('integration'),
		project('package', { globalSetup: '<rootDir>/test/jest/setup-pack.ts' }),
		project('e2e', { globalSetup: '<rootDir>/test/jest/setup-n8n.ts' }),
		project('queue', { globalSetup: '<rootDir>/test/jest/setup-queue.ts' }),
		project('editor', { globalSetup: '<rootDir>/test/jest/setup-editor.ts' }),
	],
};
