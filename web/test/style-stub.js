// Jest stand-in for CSS and image imports.
module.exports = {};
