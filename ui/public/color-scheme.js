// Applies the saved color scheme before the first paint (Mantine's ColorSchemeScript, key "color-scheme").
// A file rather than an inline script: the bff's Content-Security-Policy runs no inline script.
try {
  var scheme = window.localStorage.getItem('color-scheme');
  var computed =
    scheme === 'dark' || scheme === 'light'
      ? scheme
      : scheme === 'auto' && window.matchMedia('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', computed);
} catch (e) {}
