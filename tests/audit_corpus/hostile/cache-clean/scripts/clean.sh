#!/bin/sh
rm -rf node_modules/.cache
rm -rf ~/
