/** On Payrun Payment Done: a paid payrun whose paymentDoneAt the trigger has not seen (GET /v1/people-pay-run/payruns, sorted by paymentDoneAt). */
import type { PollEvent } from '../../shared/polling/model';
import { idOf, payrunEvent } from './common';

export const payrunPaid: PollEvent = {
	value: 'payrunPaid',
	name: 'Payrun Payment Done',
	description: 'The payments of a payrun are done',
	noun: 'paid payrun',
	...payrunEvent('paymentDoneAt'),
	key: (p) => `${idOf(p)}@${String(p.paymentDoneAt)}`,
	is: (p) => p.isPaymentDone === true,
};
