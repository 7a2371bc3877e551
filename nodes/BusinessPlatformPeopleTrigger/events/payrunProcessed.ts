/** On Payrun Processed: a processed payrun whose processedAt the trigger has not seen (GET /v1/people-pay-run/payruns, sorted by processedAt). */
import type { PollEvent } from '../../shared/polling/model';
import { idOf, payrunEvent } from './common';

export const payrunProcessed: PollEvent = {
	value: 'payrunProcessed',
	name: 'Payrun Processed',
	description: 'A payrun is processed',
	noun: 'processed payrun',
	...payrunEvent('processedAt'),
	key: (p) => `${idOf(p)}@${String(p.processedAt)}`,
	is: (p) => p.processed === true,
};
