/** The query keys every blog query starts with. */
export const BLOG_POSTS_KEY = ['blog-posts'];
export const BLOG_CATEGORIES_KEY = ['blog-categories'];
