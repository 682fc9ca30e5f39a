// Package campaigns is the bff side of campaigns and the design editor (docs/editor.md): the product-template catalogue, a seller's campaigns with
// their products (copies of templates) and one design document per product print space, the save
// that checks what the editor would refuse and queues the print export, the export states the
// editor polls, the extra print cost per product, and the editor's fonts. The campaign list shows
// each campaign as the buyer will see it, by its default mockup (store.list says which), and
// whether mockups are still being made.
//
// Campaigns belong to the account the session acts as: a team member switched into a seller's
// account works on the seller's campaigns (reads need get_campaigns, writes update_campaign), and
// another account's campaign reads as not found.
//
// Saving validates every design document with renderer/design (errors name the field, e.g.
// "designs[2].design_json.objects[0].text"), that the document's print space is the product's,
// that its artwork is the account's own uploads, that every product has a design with an object,
// and the personalized match rule. A design whose document changed (or whose last export failed:
// saving again is the retry) gets the next revision, export status pending and a render:export task
// through the outbox, committed with the change; a design without objects has no print file. The
// renderer (package renderer/export) writes the print file and its state. This package never
// reads pixels.
package campaigns
