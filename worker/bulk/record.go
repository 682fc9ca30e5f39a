package bulk

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
	MsgLoadImgFailed     = "Load img failed"
	MsgTryAgain          = "An error occurred, please try again."
	MsgExportFailed      = "A print file could not be made: "
	MsgRetrying          = "A temporary error occurred; the record will be tried again."
)
