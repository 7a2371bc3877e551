/** Paystub: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import { compact } from '../../../shared/field-values';
import { workPeriodText } from '../common';

export function simplifyPaystub(p: IDataObject): IDataObject {
	return compact({
		_id: p._id,
		employeeId: p.employeeId,
		name: [p.firstName, p.lastName].filter(Boolean).join(' '),
		payPeriod: p.payPeriod,
		workPeriod: workPeriodText(p),
		currency: p.compensationCurrency,
		earnings: p.earnings,
		deductions: p.deductions,
		netTaxes: p.netTaxes,
		netPay: p.netPay,
	});
}
