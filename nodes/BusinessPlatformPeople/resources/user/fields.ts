/**
 * The user's fields, grouped as a person fills the platform's form: Identity, Dates,
 * Personal, Address, Payment Details, Compensation (those two in pay.ts), Other; and the
 * checks made on them before a user is sent.
 */
import type { IDataObject } from 'n8n-workflow';

import type { BuiltRequest, Field, OpContext } from '../../../shared/engine/model';
import { bodyField, options } from '../../../shared/engine/fields';
import { parseJson } from '../../../shared/field-values';
import { group, str, toIsoDate } from './common';
import { compensationFields, paymentFields } from './pay';
import { echo } from '../../../shared/text-readers';

const dateField = (displayName: string, name: string, description?: string): Field =>
	bodyField({ displayName, name, type: 'dateTime', default: '', description }, name, (v, ctx) =>
		toIsoDate(v, displayName, ctx),
	);

/** A JSON object or list, checked before sending; an empty object is left out. */
function jsonField(
	displayName: string,
	name: string,
	description: string,
	shape: 'object' | 'array',
): Field {
	const jsonDefault = shape === 'object' ? '{}' : '[]';
	return bodyField(
		{ displayName, name, type: 'json', default: jsonDefault, description },
		name,
		(v, ctx) => {
			const parsed = parseJson(v, displayName, ctx);
			if (parsed === undefined) return undefined;
			if (
				shape === 'array'
					? !Array.isArray(parsed)
					: parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)
			) {
				throw ctx.fail(
					`${displayName} must be a JSON ${shape}`,
					shape === 'array'
						? 'Write a list such as [{"key": "value"}].'
						: 'Write an object such as {"key": "value"}.',
				);
			}
			return (
				Array.isArray(parsed) ? parsed : Object.keys(parsed as object).length ? parsed : undefined
			) as IDataObject;
		},
	);
}

// ------------------------------------------------------- user fields ----

const GENDERS = options([
	['Female', 'female'],
	['Male', 'male'],
	['Non-Binary', 'nonBinary'],
	['Not Given', ''],
]);

const nameFields = (): Field[] => [
	bodyField(str('First Name', 'firstName')),
	bodyField(str('Last Name', 'lastName')),
	bodyField(
		str('Email', 'emailId', 'Work email; unique in the account', { placeholder: 'name@email.com' }),
	),
];

function identityFields(withNames: boolean): Field[] {
	return [
		...(withNames ? nameFields() : []),
		bodyField(str('Middle Name', 'middleName')),
		bodyField(str('Full Name', 'name', 'Leave empty to use first, middle and last name')),
		bodyField(str('Display Name', 'displayName')),
		bodyField(str('Alias Name', 'aliasName')),
		bodyField(str('Title', 'title', 'Form of address, such as Ms or Dr')),
		bodyField(str('Designation', 'designation', 'Job title, such as Software Engineer')),
		bodyField(str('Department', 'department')),
		bodyField(str('Phone', 'contact', 'Phone number with country prefix, such as +15551234567')),
		bodyField({
			displayName: 'Gender',
			name: 'gender',
			type: 'options',
			options: GENDERS,
			default: '',
		}),
		bodyField(str('Nationality', 'nationality', 'Country code, such as US')),
		bodyField(
			str(
				'Employee ID',
				'employeeId',
				'The company’s own ID of the person; unique in the account. Leave empty to let the platform number it.',
			),
		),
		bodyField({
			displayName: 'Employment Type',
			name: 'employeeType',
			type: 'options',
			options: options([
				['Full Time', 'fullTime'],
				['Part Time', 'partTime'],
				['Contractor', 'contractor'],
			]),
			default: 'fullTime',
		}),
		bodyField({
			displayName: 'User Type',
			name: 'type',
			type: 'options',
			options: options([
				['Employee', 'EMPLOYEE'],
				['Contractor', 'CONTRACTOR'],
			]),
			default: 'EMPLOYEE',
		}),
		bodyField(str('Contractor Type', 'contractorType', 'For contractors: individual or business')),
		bodyField(str('Organization Name', 'organizationName')),
		bodyField(str('Country Code', 'countryCode', 'Country of employment, such as US or IN')),
		bodyField(str('Username', 'username')),
		bodyField(str('Document Sequence ID', 'documentSequenceId')),
	];
}

const datesFields = (): Field[] => [
	dateField('Date of Joining', 'dateOfJoining'),
	dateField('Date of Confirmation', 'dateOfConfirmation', 'End of the probation period'),
	dateField('Date of Termination', 'dateOfTermination'),
	dateField('Date of Birth', 'dateOfBirth'),
];

const personalFields = (): Field[] => [
	bodyField({
		displayName: 'Marital Status',
		name: 'maritalStatus',
		type: 'options',
		options: options([
			['Single', 'single'],
			['Married', 'married'],
			['Divorced', 'divorced'],
			['Widowed', 'widowed'],
		]),
		default: 'single',
	}),
	bodyField(str('Passport Number', 'passportNumber')),
	bodyField(str('Passport Country', 'passportCountry', 'Country code, such as US')),
	bodyField(str('Social Security Number', 'socialSecurityNumber')),
	bodyField(str('Employer Identification Number', 'employerIdentificationNumber')),
];

const addressFields = (): Field[] =>
	[
		['Address Line 1', 'addressLine1'],
		['Address Line 2', 'addressLine2'],
		['City', 'city'],
		['State', 'state'],
		['ZIP Code', 'zipCode'],
		['Country', 'country'],
		['County', 'county'],
		['Suburb', 'suburb'],
	].map(([displayName, name]) => bodyField(str(displayName, name), `address.${name}`));

const otherFields = (): Field[] => [
	bodyField(str('Status', 'status', 'Such as active or draft')),
	bodyField({
		displayName: 'Make Payroll',
		name: 'makePayroll',
		type: 'boolean',
		default: true,
		description: 'Whether the user is paid through payruns',
	}),
	bodyField({
		displayName: 'Invite User to Fill Info',
		name: 'inviteUserToFillInfo',
		type: 'boolean',
		default: false,
		description: 'Whether the platform asks the user to complete their profile',
	}),
	bodyField({
		displayName: 'Direct Deposit Consent',
		name: 'directDepositConsent',
		type: 'boolean',
		default: false,
		description: 'Whether the user agreed to be paid by direct deposit',
	}),
	bodyField(
		str(
			'Component Group ID',
			'componentGroup',
			'The component group whose pay components apply to the user',
		),
	),
	bodyField({
		displayName: 'Has Components',
		name: 'hasComponents',
		type: 'boolean',
		default: false,
		description: 'Whether the user has pay components',
	}),
	bodyField({
		displayName: 'Has Compliance',
		name: 'hasCompliance',
		type: 'boolean',
		default: false,
		description: 'Whether country-specific compliance data is set',
	}),
	bodyField(
		str(
			'Approver Emails',
			'approvers',
			'Comma-separated emails of users of the account who approve this user’s requests',
		),
		'approvers',
		(v) => {
			const emails = String(v ?? '')
				.split(/[\s,;]+/)
				.map((e) => e.trim())
				.filter(Boolean);
			return emails.length ? emails.map((emailId) => ({ emailId })) : undefined;
		},
	),
	jsonField(
		'Compliance (JSON)',
		'compliance',
		'Country-specific compliance object, with its "@type"',
		'object',
	),
	jsonField(
		'Custom Fields (JSON)',
		'customFields',
		'Custom field values keyed by field name',
		'object',
	),
	jsonField(
		'Custom Field Data (JSON)',
		'customFieldData',
		'List of {customFieldId, value: [text]} entries',
		'array',
	),
];

type WriteMode = 'create' | 'replace' | 'patch';

const GROUP_NOTES: Record<WriteMode, string | undefined> = {
	create: undefined,
	replace: 'The whole user is replaced: fields left out are cleared',
	patch: 'Only the fields you add change; the others keep their values',
};

/** The user's fields in groups. Each mode has its own properties, so every operation shows its user picker first. */
export function userGroups(mode: WriteMode): Field[] {
	const note = GROUP_NOTES[mode];
	return [
		group('Identity', 'identity', identityFields(mode === 'patch'), 'Add Field', note),
		group('Dates', 'dates', datesFields(), 'Add Date', note),
		group('Personal', 'personal', personalFields(), 'Add Field', note),
		group('Address', 'address', addressFields(), 'Add Address Field', note),
		group('Payment Details', 'paymentDetails', paymentFields(), 'Add Payment Field', note),
		group('Compensation', 'compensation', compensationFields(), 'Add Compensation Field', note),
		group('Other Fields', 'otherFields', otherFields(), 'Add Field', note),
	];
}

export const requiredName = (mode: WriteMode = 'create'): Field[] => [
	bodyField({
		...str(
			'First Name',
			'firstName',
			mode === 'replace' ? 'Required again: the whole user is replaced' : undefined,
		),
		required: true,
	}),
	bodyField(
		str(
			'Last Name',
			'lastName',
			mode === 'replace' ? 'Left empty, the last name is cleared' : undefined,
		),
	),
	bodyField(
		str(
			'Email',
			'emailId',
			mode === 'replace'
				? 'Work email; unique in the account. Left empty, the email is cleared.'
				: 'Work email; unique in the account',
			{ placeholder: 'name@email.com' },
		),
	),
];

export function checkUser(req: BuiltRequest, ctx: OpContext): void {
	if ('firstName' in req.body && !String(req.body.firstName).trim())
		throw ctx.fail('First Name is empty', 'A user needs a first name.');
	const email = req.body.emailId;
	if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(String(email)))
		throw ctx.fail(
			`Email ${echo(String(email))} is not an email address`,
			'Give a full address such as name@example.com, or leave the field out.',
		);
}

/** Create and Update (PUT) send the whole user: a first name is required, and refused before sending when blank. */
export function checkWholeUser(req: BuiltRequest, ctx: OpContext): void {
	if (!String(req.body.firstName ?? '').trim())
		throw ctx.fail('First Name is empty', 'A user needs a first name.');
	checkUser(req, ctx);
}
