package memory

// LeftOutStatement is the statement RecallPreview counts what a packet left out with, for the test
// that checks its plan and times it.
var LeftOutStatement = qRecallLeftOut
