/**
 * What the platform does to a payrun on its own, which no documented endpoint does: it
 * processes the payrun (processed, processedAt, one paystub per payroll, as seeded payruns
 * have) and then pays it (isPaymentDone, paymentDoneAt). The sandbox's admin endpoint
 * `POST /__admin/payruns/:tenantId/:id/:step` runs a step, so polling triggers can be tested.
 */
import type { Env } from '../../env';
import { nowIso, type Doc, type Tenant } from '../../state';
import { fieldError } from '../gateway';
import { paystubFor } from './paystubs';

export type PayrunStep = 'process' | 'pay';

export function advancePayrun(env: Env, tenant: Tenant, payrun: Doc, step: PayrunStep): Doc {
	const now = nowIso();
	if (step === 'process') {
		if (payrun.processed === true) throw fieldError('payrun', 'is already processed');
		Object.assign(payrun, {
			processed: true,
			stage: 'processed',
			processedAt: now,
			updatedAt: now,
		});
		for (const pr of (payrun.payrolls as Doc[] | undefined) ?? []) {
			pr.processed = true;
			const stub = paystubFor(env, tenant, payrun, pr, tenant.peopleUsers.get(pr.userId as string));
			tenant.paystubs.set(stub._id as string, stub);
		}
	} else {
		if (payrun.processed !== true)
			throw fieldError('payrun', 'must be processed before it is paid');
		if (payrun.isPaymentDone === true) throw fieldError('payrun', 'is already paid');
		Object.assign(payrun, {
			isPaymentDone: true,
			stage: 'completed',
			paymentDoneAt: now,
			updatedAt: now,
			paymentCount: payrun.employeeCount,
		});
		for (const pr of (payrun.payrolls as Doc[] | undefined) ?? [])
			Object.assign(pr, { isPaymentDone: true, paymentStatus: 'PAID' });
	}
	tenant.payruns.touch();
	return payrun;
}
