// Package chromepool renders 3D mockups and prints pages to PDF (invoices) in headless Chromium, supervised the way a process supervisor
// keeps workers: a fixed number of browsers, each serving one render at a time in a tab kept for
// Config.RendersPerTab renders (then a fresh one), fed from a bounded queue that answers ErrBusy instead of growing.
//
// Each browser runs in its own process group with a fresh profile folder (pressroom-chrome-* in
// Config.ProfileDir), locked by the pool while in use, so that a pool starting removes the folders whose
// lock nobody holds: those of a killed renderer. A browser is replaced after Config.RecycleAfter renders and whenever it dies; stopping it kills the whole group (the main process
// is reaped by its parent, the rest by init) and removes the profile. Every render has a deadline. A tab may
// load only the pool's own origin (the page, its assets, the model and the design, all served by Site)
// and data:/blob: URLs of that page: the Fetch domain fails every other request, so file://, private
// addresses and other hosts get nothing. A render whose PNG is only the background colour is
// retried once, then fails with ErrBlank; a render whose browser died is retried once on a fresh browser.
//
// The pages are ui/mockup3d.html (ui/src/mockup3d) and ui/invoice.html (ui/src/invoice), built into the UI
// folder; Site serves them with the models of package models and the renderer's fonts. A PDF is printed in
// a tab of its own, closed afterwards, queued and retried like a render. The package does not decide which mockups a campaign needs or where the
// result is stored: that is the task handler's business.
package chromepool
