/** Paystub: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import { compact } from '../../../shared/fields';

export function simplifyPaystub(p: IDataObject): IDataObject {
	const wp = (p.workPeriod as IDataObject | undefined) ?? {};
	return compact({
		_id: p._id,
		employeeId: p.employeeId,
		name: [p.firstName, p.lastName].filter(Boolean).join(' '),
		payPeriod: p.payPeriod,
		workPeriod: wp.from || wp.to ? `${String(wp.from ?? '')}-${String(wp.to ?? '')}` : undefined,
		currency: p.compensationCurrency,
		earnings: p.earnings,
		deductions: p.deductions,
		netTaxes: p.netTaxes,
		netPay: p.netPay,
	});
}
