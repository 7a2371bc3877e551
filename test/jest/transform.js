/**
 * jest's transformer for the TypeScript of the tests, the pack and the scripts: esbuild strips the
 * types, as `tsx` does when the scripts run on their own. A fresh clone compiles every file once;
 * ts-jest spent about 75 of `npm test`'s 1,035 CPU-seconds on that (docs/development.md, "Where the
 * CPU goes"). Types are checked by `npm run typecheck`, not here: tsconfig.test.json sets
 * isolatedModules, so ts-jest checked none either. The options follow tsconfig.json (ES2022
 * class fields, CommonJS with esModuleInterop, import() as require).
 */
const { createHash } = require('node:crypto');
const { transformSync, version } = require('esbuild');

const OPTIONS = {
	loader: 'ts',
	format: 'cjs',
	platform: 'node',
	target: 'es2022',
	sourcemap: 'external',
	// import() as a require (what tsc emits for CommonJS): jest runs no ES modules.
	supported: { 'dynamic-import': false },
	tsconfigRaw: {
		compilerOptions: { target: 'es2022', useDefineForClassFields: true, esModuleInterop: true },
	},
};

module.exports = {
	process(source, filename) {
		const { code, map } = transformSync(source, { ...OPTIONS, sourcefile: filename });
		return { code, map };
	},
	getCacheKey(source, filename) {
		return createHash('sha256')
			.update(`${version}\0${JSON.stringify(OPTIONS)}\0${filename}\0`)
			.update(source)
			.digest('hex');
	},
};
