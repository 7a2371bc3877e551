// The lint of the development code: tests, sandbox, benchmarks, scripts and the
// repository's own config files. None of it is published (package.json "files" is
// dist/ only), so n8n's rules for node code (no process, no timers, no node:fs, no
// console, NodeApiError only) do not apply to it. `npm run lint` runs this after
// `n8n-node lint`, whose config (eslint.config.mjs) must stay n8n's template verbatim
// for strict mode: it lints every file, so each development file that n8n's rules
// flag starts with one eslint-disable line naming exactly those rules, written by
// `npm run lint:headers` (scripts/lint-headers.ts).
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import tseslint from 'typescript-eslint';

// n8n's plugins, registered with none of their rules on, so that the header lines'
// rule names resolve here too (typescript-eslint is this config's own).
const n8nPlugins = Object.fromEntries(
	n8nConfig
		.flatMap((c) => Object.entries(c.plugins ?? {}))
		.filter(([name]) => name !== '@typescript-eslint'),
);

export default tseslint.config(
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'.n8n-runtime/**',
			'coverage/**',
			'nodes/**',
			'credentials/**',
		],
	},
	// The header lines disable rules this config does not turn on.
	{ plugins: n8nPlugins, linterOptions: { reportUnusedDisableDirectives: 'off' } },
	...tseslint.configs.recommended.map((c) => ({ ...c, files: ['**/*.ts'] })),
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-non-null-assertion': 'off',
		},
	},
	{
		files: ['**/*.js'],
		languageOptions: {
			sourceType: 'commonjs',
			globals: {
				require: 'readonly',
				module: 'writable',
				__dirname: 'readonly',
				process: 'readonly',
			},
		},
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: ['**/*.mjs'],
		languageOptions: {
			sourceType: 'module',
			globals: { process: 'readonly', console: 'readonly' },
		},
	},
);
