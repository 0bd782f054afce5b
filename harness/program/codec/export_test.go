package codec

// DropDetrandSpaces exports dropDetrandSpaces to the tests.
var DropDetrandSpaces = dropDetrandSpaces
