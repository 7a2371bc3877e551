/**
 * Code formatting: the settings of n8n's node starter (n8n-nodes-starter, `npm create
 * @n8n/node`), so the code reads like n8n's own nodes. `npm run lint` checks it;
 * `npm run format` applies it.
 */
module.exports = {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 100,
};
