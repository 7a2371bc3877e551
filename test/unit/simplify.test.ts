/**
 * Simplify's shared readers (objectAt, userName, workPeriodText) on the records the
 * platform sends, including embedded values that are missing, null, a list or a text:
 * the simplified items other tests do not look at (payruns, paystubs, templates).
 */
import { simplifyTemplate } from '../../nodes/BusinessPlatformCampaigns/resources/emailTemplate/common';
import { simplifyPayrun } from '../../nodes/BusinessPlatformPeople/resources/payrun/common';
import { simplifyPaystub } from '../../nodes/BusinessPlatformPeople/resources/paystub/common';
import { simplifyContact } from '../../nodes/BusinessPlatformSales/resources/contact/common';
import { objectAt } from '../../nodes/shared/field-values';

describe('objectAt', () => {
	it('gives the embedded object, and nothing for a missing, null, list or text value', () => {
		const record = { a: { id: 1 }, b: null, c: [{ id: 2 }], d: 'text' };
		expect(objectAt(record, 'a')).toEqual({ id: 1 });
		for (const key of ['b', 'c', 'd', 'missing']) expect(objectAt(record, key)).toBeUndefined();
	});
});

describe('simplified items', () => {
	it('payrun: the pay schedule’s name and the work period as text', () => {
		const payrun = {
			_id: 'p1',
			paySchedule: { name: 'Monthly' },
			workPeriod: { from: '07/01/2024', to: '07/31/2024' },
			netPay: 100,
		};
		expect(simplifyPayrun(payrun)).toEqual({
			_id: 'p1',
			paySchedule: 'Monthly',
			workPeriod: '07/01/2024-07/31/2024',
			netPay: 100,
		});
		expect(simplifyPayrun({ _id: 'p2', paySchedule: 'Monthly', workPeriod: null })).toEqual({
			_id: 'p2',
		});
	});

	it('paystub: the name and the work period as text, left out when there is none', () => {
		expect(
			simplifyPaystub({
				_id: 's1',
				firstName: 'Ada',
				lastName: 'Lovelace',
				workPeriod: { from: '07/01/2024' },
			}),
		).toEqual({ _id: 's1', name: 'Ada Lovelace', workPeriod: '07/01/2024-' });
		expect(simplifyPaystub({ _id: 's2', workPeriod: {} })).toEqual({ _id: 's2' });
	});

	it('template: the category’s id and name, left out when the category is gone', () => {
		expect(simplifyTemplate({ id: 9, name: 'Welcome', category: { id: 3, name: 'News' } })).toEqual(
			{ id: 9, name: 'Welcome', categoryId: 3, category: 'News' },
		);
		expect(simplifyTemplate({ id: 9, name: 'Welcome', category: null })).toEqual({
			id: 9,
			name: 'Welcome',
		});
	});

	it('contact: the label’s name and the owner’s first and last name', () => {
		const contact = {
			id: 5,
			name: 'Initech',
			label: { name: 'Customer' },
			owner_details: { first_name: 'Grace', last_name: 'Hopper' },
		};
		expect(simplifyContact(contact)).toEqual({
			id: 5,
			name: 'Initech',
			label: 'Customer',
			owner: 'Grace Hopper',
		});
		expect(
			simplifyContact({ id: 6, name: 'Hooli', label: 'Customer', owner_details: null }),
		).toEqual({ id: 6, name: 'Hooli' });
	});
});
