import type { Module } from '../module';

export const payroll: Module = {
	name: 'payroll',
	routes() {},
};
