package pngenc

// Adler32CombineForTest exposes adler32Combine to the external tests.
var Adler32CombineForTest = adler32Combine
