/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Property tests (fast-check): one seed for the whole run, so a failure is reproducible, and
 * fast-check shrinks it to a minimal case. A failing property prints its seed and path;
 * replay one property with them (see CONTRIBUTING.md, "Property tests"):
 *
 *   FC_SEED=<seed> FC_PATH=<path> npx jest --selectProjects unit integration -t "<property name>"
 *
 * FC_RUNS scales every property's number of cases (for example FC_RUNS=10 to explore ten times more).
 */
import fc from 'fast-check';

/** The seed of this run: FC_SEED, or a fixed default so that `npm test` checks the same cases every time. */
export const PROPERTY_SEED = Number(process.env.FC_SEED ?? 20261124);

/** Parameters for `fc.assert`: the run's seed, `runs` cases (times FC_RUNS), and FC_PATH to replay one failing case. */
export function propertyParameters<T>(runs: number): fc.Parameters<T> {
	const scale = Number(process.env.FC_RUNS ?? 1) || 1;
	return {
		seed: PROPERTY_SEED,
		numRuns: Math.max(1, Math.round(runs * scale)),
		...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
		verbose: fc.VerbosityLevel.Verbose,
	};
}

/** Checks an async property over `runs` generated cases with the run's seed. */
export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
	runs: number,
	property: fc.IAsyncPropertyWithHooks<Ts>,
): Promise<void> {
	await fc.assert(property, propertyParameters<Ts>(runs));
}

/** Every own key of Object.prototype and of Function.prototype, and the usual prototype-pollution names. */
export const PROTOTYPE_KEYS: string[] = [
	...new Set([
		...Object.getOwnPropertyNames(Object.prototype),
		...Object.getOwnPropertyNames(Function.prototype),
		'__proto__',
		'constructor',
		'prototype',
	]),
];

/**
 * Strings an attacker or an odd input would try: prototype keys, dots, slashes, encodings, unicode, empty and huge.
 * One arbitrary for every caller: a property that builds one per generated value (inside `chain`) would build its
 * regular expression's generator each time (fast-check's `stringMatching`: about 10 s of trigger-forgery's
 * property); an arbitrary holds no state, so the cases are the same.
 */
export const hostileString = (): fc.Arbitrary<string> => HOSTILE_STRING;

const HOSTILE_STRING: fc.Arbitrary<string> = fc.oneof(
	fc.constantFrom(
		...PROTOTYPE_KEYS,
		'',
		' ',
		'.',
		'..',
		'../',
		'..%2f',
		'%2e%2e',
		'%252e%252e',
		'%2E.',
		'/',
		'//',
		'\\',
		'?',
		'#',
		'%',
		'%00',
		'\u0000',
		'\u202e',
		'😀',
		'a'.repeat(10_000),
	),
	fc.string(),
	fc.string({ unit: 'grapheme' }),
	fc.stringMatching(/^[./\\%?#a-z0-9]{1,12}$/),
);
