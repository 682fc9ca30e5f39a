package blob

import (
	"strconv"
	"strings"
)

// MockupTemplatePrefix starts the keys of the catalogue's mockup templates: their photos, maps and 3D
// models, which every seller's editor may load.
const MockupTemplatePrefix = "mockup-templates/"

// MockupKey is where the mockup image of a campaign's product is stored:
// p/{campaignId}/design_{mockupId}_{productId}.png. Its key is the file_url the UI keeps.
func MockupKey(campaignID, mockupID, productID int64) string {
	return "p/" + strconv.FormatInt(campaignID, 10) + "/design_" + strconv.FormatInt(mockupID, 10) + "_" +
		strconv.FormatInt(productID, 10) + ".png"
}

// MockupPreviewKey is where the 500 px WebP preview of the mockup under MockupKey is stored, beside
// it: p/{campaignId}/design_{mockupId}_{productId}_preview.webp.
func MockupPreviewKey(campaignID, mockupID, productID int64) string {
	return strings.TrimSuffix(MockupKey(campaignID, mockupID, productID), ".png") + "_preview.webp"
}

// MockupBaseKey is where the base mockup of the mockup under MockupKey is stored, beside it:
// p/{campaignId}/design_{mockupId}_{productId}_base.webp, a WebP of at most 500 px like the preview,
// showing the design without its custom objects, under which the storefront's live preview draws the
// buyer's own.
func MockupBaseKey(campaignID, mockupID, productID int64) string {
	return strings.TrimSuffix(MockupKey(campaignID, mockupID, productID), ".png") + "_base.webp"
}
