package shop

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/pressroom/pressroom/commerce/storesite"
	"github.com/pressroom/pressroom/platform/richtext"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// descriptionLength is the most characters of a page description taken from a body.
const descriptionLength = 160

// postCard is a post in a list of the blog.
type postCard struct {
	Post
	Summary string
}

// blogData is a page of the blog: all posts, or a category's.
type blogData struct {
	Category   *BlogCategory
	Posts      []postCard
	Categories []BlogCategory
	Page       int
	LastPage   int
	// Path is the list's address under the store's base, to which the pager adds ?page=.
	Path string
}

// postData is a post's page.
type postData struct {
	Post
	Categories []BlogCategory
}

// excerpt is what a list and a description say of a post: its excerpt, else the start of its body.
func excerpt(p Post, max int) string {
	if p.Excerpt != "" {
		return p.Excerpt
	}
	return richtext.Summary(p.Body, max)
}

// coverPath is the address of a post's cover under the store's base; it changes with the post, so
// a cover replaced is not served from a cache.
func coverPath(p Post) string {
	return "/img/post/" + strconv.FormatInt(p.ID, 10) + "?v=" + strconv.FormatInt(p.UpdatedAt.Unix(), 10)
}

func (s *Server) blog(w http.ResponseWriter, r *http.Request) {
	s.showBlog(w, r, nil)
}

func (s *Server) blogCategory(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	c, err := s.store.blogCategory(r.Context(), rs.ID, r.PathValue("slug"))
	if errors.Is(err, errNotFound) {
		s.notFound(w, r, "This blog has no such category.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	s.showBlog(w, r, &c)
}

// showBlog is a page (?page=, from 1) of the store's published posts, of category c when given.
func (s *Server) showBlog(w http.ResponseWriter, r *http.Request, c *BlogCategory) {
	rs := storeOf(r)
	page := 1
	if v := r.URL.Query().Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			s.notFound(w, r, "This blog has no such page.")
			return
		}
		page = n
	}
	var catID int64
	d := blogData{Category: c, Page: page, Path: "/blog"}
	if c != nil {
		catID, d.Path = c.ID, "/blog/category/"+c.Slug
	}
	posts, total, err := s.store.posts(r.Context(), rs.ID, catID, page)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.LastPage = max(1, (total+PostsPerPage-1)/PostsPerPage)
	if page > d.LastPage {
		s.notFound(w, r, "This blog has no such page.")
		return
	}
	if d.Categories, err = s.store.blogCategories(r.Context(), rs.ID); err != nil {
		s.fail(w, r, err)
		return
	}
	for _, p := range posts {
		d.Posts = append(d.Posts, postCard{Post: p, Summary: excerpt(p, 240)})
	}
	title, desc := "Blog — "+rs.Name, "News and stories from "+rs.Name
	if c != nil {
		title = c.Name + " — Blog — " + rs.Name
		if c.Description != "" {
			desc = c.Description
		}
	}
	canonical := rs.Origin + d.Path
	if page > 1 {
		title = title + " (page " + strconv.Itoa(page) + ")"
		canonical += "?page=" + strconv.Itoa(page)
	}
	v := view{Title: title, Description: desc, Canonical: canonical, Data: d}
	if len(posts) > 0 && posts[0].CoverKey != "" {
		v.OGImage = rs.Origin + coverPath(posts[0])
	}
	v.OGType = "website"
	s.show(w, r, http.StatusOK, cachePublic, "blog", v)
}

func (s *Server) blogPost(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	p, err := s.store.post(r.Context(), rs.ID, r.PathValue("slug"))
	if errors.Is(err, errNotFound) {
		s.notFound(w, r, "This blog has no such post.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	v := view{Title: p.Title + " — " + rs.Name, Description: excerpt(p, descriptionLength), OGType: "article",
		Published: p.PublishedAt, Canonical: rs.Origin + "/blog/" + p.Slug, Data: postData{Post: p, Categories: p.Categories}}
	if p.CoverKey != "" {
		v.OGImage = rs.Origin + coverPath(p)
	}
	s.show(w, r, http.StatusOK, cachePublic, "post", v)
}

// postCover serves a published post's cover: the renderer's WebP of it once made, the upload
// itself until then.
func (s *Server) postCover(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		s.notFound(w, r, "No such picture.")
		return
	}
	key, ct, err := s.store.cover(r.Context(), rs.ID, id)
	if errors.Is(err, errNotFound) {
		s.notFound(w, r, "No such picture.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	variant := tasks.VariantKey(storesite.CoverVariant, key)
	if _, err := s.d.Blobs.Stat(r.Context(), variant); err == nil {
		key, ct = variant, "image/webp"
	}
	s.serveBlob(w, r, key, ct, cacheImage)
}
