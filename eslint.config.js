// ESLint 9 flat config: n8n's community-node rules and eslint-plugin-n8n-nodes-base
// on the pack (credentials/, nodes/, package.json); typescript-eslint's basics on
// the sandbox, tests and scripts.
const tseslint = require('typescript-eslint');
const n8nNodesBase = require('eslint-plugin-n8n-nodes-base');
const { configs: communityConfigs } = require('@n8n/eslint-plugin-community-nodes');

const pack = ['credentials/**/*.ts', 'nodes/**/*.ts'];

module.exports = tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.n8n-runtime/**', 'coverage/**', 'bench/results/**'] },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
	},
	...tseslint.configs.recommended.map((c) => ({ ...c, files: ['**/*.ts'] })),
	{ files: pack, ...communityConfigs.recommended },
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Only applicable to n8n's own repository (documentation slugs there); ours is a URL.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Superseded by the community plugin: it asks for NodeConnectionTypes.Main where these
			// older rules ask for the string 'main'; the two cannot both pass.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-inputs-wrong-trigger-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['test/**/*.ts', 'sandbox/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-non-null-assertion': 'off',
		},
	},
	{
		files: ['*.js'],
		languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' } },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
);
