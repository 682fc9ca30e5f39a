// Package systemconfig serves the platform's shared configuration (GET /api/system-configs,
// docs/shell.md): the operator's key-value settings, the garment colours,
// the countries and the shipping locations, plus the display currency, all read from Postgres
// (schema/migrations/00013_system_configs.sql seeds them). The UI asks GET /api/system-configs once
// after login.
//
// GET /api/public/platform tells anyone, signed in or not, whether the operator has put the platform
// in maintenance (the system config "maintenance"), which the UI's maintenance guard follows.
// Admins flip the switch with PUT /api/admin/system-configs/maintenance {"value": "true"} (or
// "false"); admins themselves keep using the dashboard during maintenance.
package systemconfig
