// The UI is not Go: this empty module keeps ./... out of ui/node_modules (some npm packages ship .go files).
module github.com/pressroom/pressroom/ui
