/** The property helper itself: the same seed gives the same cases, and the hostile strings include every prototype key. */
import fc from 'fast-check';

import {
	checkProperty,
	hostileString,
	propertyParameters,
	PROTOTYPE_KEYS,
} from '../helpers/property';

test('the same seed generates the same cases', () => {
	const params = propertyParameters<[string]>(20);
	const first = fc.sample(hostileString(), { seed: params.seed, numRuns: 20 });
	const second = fc.sample(hostileString(), { seed: params.seed, numRuns: 20 });
	expect(second).toEqual(first);
});

test('prototype keys include toString, valueOf, constructor and __proto__', () => {
	expect(PROTOTYPE_KEYS).toEqual(
		expect.arrayContaining(['toString', 'valueOf', 'constructor', '__proto__', 'hasOwnProperty']),
	);
});

test('checkProperty runs an async property', async () => {
	let runs = 0;
	await checkProperty(
		25,
		fc.asyncProperty(fc.integer(), async () => {
			runs++;
		}),
	);
	expect(runs).toBeGreaterThanOrEqual(25);
});
