package bulk

// Statuses of a bulk record (bulk_records.status).
const (
	// StatusPending: created, not started; start queues it.
	StatusPending = "pending"
	// StatusQueued: its task is on the way or running.
	StatusQueued = "queued"
	// StatusProcessing: the campaign and designs are saved; the print files are being made.
	StatusProcessing = "processing"
	// StatusCompleted: every print file is stored and the results are written.
	StatusCompleted = "completed"
	// StatusFailed: a record check failed, an export failed or the task gave up; message says why.
	StatusFailed = "failed"
	// StatusStopped: the seller stopped it before it was applied.
	StatusStopped = "stopped"
)

// Record types (bulk_records.type); the list shows both unless told.
const (
	TypeRegularMultiSpace = "regular_multi_space"
	TypeExpressMultiSpace = "express_multi_space"
)

// Steps of the record task, kept on the record for the live worker table.
const (
	StepLoadPendingRecord   = "LOAD_PENDING_RECORD"
	StepPreLoadDesignMockup = "PRE_LOAD_DESIGN_MOCKUP"
	StepApplyDesign         = "APPLY_DESIGN"
	StepApplyDesignSuccess  = "APPLY_DESIGN_SUCCESS"
	StepInvalidDesign       = "INVALID_DESIGN"
)

// Messages a record fails with, shown on the row as they are.
const (
	MsgDesignsInvalid    = "Designs is invalid"
	MsgDesignURLInvalid  = "Design url is invalid"
	MsgDesignInvalid     = "Design is invalid"
	MsgPrintSpaceInvalid = "Print space is invalid"
	MsgPrintSpaceMissing = "PRINT_SPACE_IS_MISSING"
	MsgEmptyValidDesign  = "Empty valid design"
	MsgInvalidDesign     = "Invalid design"
	MsgCampaignNotFound  = "Campaign not found"
	MsgLoadImgFailed     = "Load img failed"
	MsgTryAgain          = "An error occurred, please try again."
	MsgExportFailed      = "A print file could not be made: "
	MsgRetrying          = "A temporary error occurred; the record will be tried again."
)
