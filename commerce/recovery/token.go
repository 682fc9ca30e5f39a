package recovery

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// Token signs the recovery link of a store's checkout under key (PRESSROOM_STOREFRONT_SIGNING_KEY).
func Token(key string, storeID int64, checkoutID string) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write([]byte("recover:" + strconv.FormatInt(storeID, 10) + ":" + checkoutID))
	return hex.EncodeToString(mac.Sum(nil))[:32]
}

// Valid reports whether token is the recovery token of the store's checkout.
func Valid(key string, storeID int64, checkoutID, token string) bool {
	return hmac.Equal([]byte(token), []byte(Token(key, storeID, checkoutID)))
}

// Path is the recovery link of a checkout under its store's base (/ on the store's host, /s/{slug}
// by path).
func Path(key string, storeID int64, checkoutID string) string {
	return "/recover/" + checkoutID + "/" + Token(key, storeID, checkoutID)
}
